import type { RefundTier, SessionInfo } from '@showtix/shared-types';
import { Text, View } from '@tarojs/components';
import { refundRuleLines } from '../../utils/refund';

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

/** One row of 购票须知: what it is about, and what holds for the session picked. */
export interface NoteRow {
  key: string;
  label: string;
  text: string;
}

/**
 * 购票须知 as rows, from the session's own settings (nothing here is a promise the server does
 * not keep): how seats are bought, the limit, real names, the waiting room, the time to pay,
 * entry and refunds.
 */
export function purchaseNoteRows(s: SessionInfo, rules: RefundTier[]): NoteRow[] {
  const rows: NoteRow[] = [
    {
      key: 'seating',
      label: '选座方式',
      text: s.seating === 'reserved' ? '在线选座，对号入座' : '按区域购买，站席/自由席不设座位号',
    },
    { key: 'limit', label: '限购', text: `每人每场限购 ${s.purchaseLimit} 张` },
    {
      key: 'realname',
      label: '实名',
      text: s.realName
        ? '实名制：一人一证一票，下单时填写观演人证件，入场时核验证件原件'
        : '非实名：凭电子票入场',
    },
  ];
  if (s.queueEnabled)
    rows.push({ key: 'queue', label: '排队', text: '开售时排队购票，轮到您后在限定时间内选座下单' });
  rows.push(
    { key: 'pay', label: '支付', text: `下单后请在 ${s.holdMinutes} 分钟内完成支付，超时订单自动取消` },
    { key: 'entry', label: '入场', text: '凭「票夹」中的电子票二维码入场，二维码定时刷新，截图无效' },
    {
      key: 'refund',
      label: '退票',
      text: refundRuleLines(rules).length ? '支持退票，手续费见下方退票规则' : '本演出不支持退票',
    },
  );
  return rows;
}

export function PurchaseNotes({ session, rules }: { session: SessionInfo; rules: RefundTier[] }) {
  return (
    <View className="card" data-testid="purchase-notes">
      <Text className="card__title">购票须知</Text>
      {purchaseNoteRows(session, rules).map((r) => (
        <View key={r.key} className="note-row" data-testid="note-row">
          <Text className="note-row__label">{r.label}</Text>
          <Text className="note-row__text">{r.text}</Text>
        </View>
      ))}
    </View>
  );
}
