import type { RefundTier } from '@showtix/shared-types';
import { Text, View } from '@tarojs/components';
import { refundRuleLines } from '../../utils/refund';

export function RealNameNotice({ limit }: { limit: number }) {
  return (
    <View className="card card--notice" data-testid="realname-notice">
      <Text className="card__title">实名购票须知</Text>
      <Text className="card__text">
        本场次实行实名制：一人一证一票，每单限购 {limit}{' '}
        张。下单时需填写观演人姓名及证件号码，入场时请携带下单所用证件原件。
      </Text>
    </View>
  );
}

export function RefundRules({ rules }: { rules: RefundTier[] }) {
  const lines = refundRuleLines(rules);
  return (
    <View className="card">
      <Text className="card__title">退票规则</Text>
      {lines.length === 0 ? <Text className="card__text">本演出不支持退票</Text> : null}
      {lines.map((l) => (
        <Text key={l} className="card__line">
          · {l}
        </Text>
      ))}
    </View>
  );
}
