import { View } from '@tarojs/components';
import { useRouter } from '@tarojs/taro';
import { useState } from 'react';
import type { CompClaimView } from '@showtix/shared-types';
import CodeEntry from '../../components/CodeEntry';
import DoneCard from '../../components/DoneCard';
import { switchTab } from '../../routes';
import { claimComp } from '../../services/comps';
import './index.scss';

const CODE = /^[A-Z2-9]{10}$/;

/**
 * 领取赠票: the person an organiser gave complimentary tickets to enters the claim code (or opens
 * a link carrying `?code=`); the tickets become this WeChat account's, in 票夹 like bought ones.
 */
export default function CompClaimPage() {
  const { params } = useRouter();
  const [done, setDone] = useState<CompClaimView>();

  if (done) {
    return (
      <DoneCard
        block="comp-claim"
        testid="comp-done"
        title={`已领取 ${done.tickets} 张赠票`}
        sub="门票已放入票夹，入场时出示票夹中的二维码"
        action={{ text: '查看票夹', testid: 'comp-tickets', onTap: () => switchTab('tickets') }}
      />
    );
  }
  return (
    <View className="page comp-claim">
      <CodeEntry
        block="comp-claim"
        title="输入赠票领取码"
        sub="领取码由主办方发给您，领取后门票绑定到当前微信账号，不能再转给他人"
        placeholder="10 位字母或数字"
        maxlength={10}
        pattern={CODE}
        patternHint="领取码为 10 位字母或数字"
        testids={{ code: 'comp-code', submit: 'comp-claim' }}
        submitLabel="领取"
        initial={params.code}
        onSubmit={async (c) => setDone(await claimComp(c))}
      />
    </View>
  );
}
