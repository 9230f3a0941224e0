import type { OrderRefund } from '@showtix/shared-types';
import { Text, View } from '@tarojs/components';
import { formatShortDateTime } from '../../utils/time';

/** A refund that has not settled: its tickets are locked at the gate until it does. */
export function refundOpen(r: OrderRefund | undefined): boolean {
  return r?.status === 'requested' || r?.status === 'processing' || r?.status === 'abnormal';
}

interface Step {
  key: string;
  label: string;
  at?: string;
  state: 'done' | 'now' | 'todo' | 'bad';
}

/** The refund's steps as the fan follows them: asked, at WeChat Pay, and how it ended. */
export function refundSteps(r: OrderRefund): Step[] {
  const settled = r.status === 'succeeded' || r.status === 'closed';
  const end: Step =
    r.status === 'succeeded'
      ? { key: 'end', label: '退款成功，已原路退回', at: r.finishedAt, state: 'done' }
      : r.status === 'closed'
        ? { key: 'end', label: '退款已关闭', at: r.finishedAt, state: 'bad' }
        : r.status === 'abnormal'
          ? { key: 'end', label: '退款异常，客服处理中', at: r.finishedAt, state: 'bad' }
          : { key: 'end', label: '退款到账', state: 'todo' };
  return [
    { key: 'asked', label: '提交退款申请', at: r.requestedAt, state: 'done' },
    {
      key: 'processing',
      label: '微信支付处理中',
      state: settled || r.status === 'abnormal' ? 'done' : r.status === 'processing' ? 'now' : 'todo',
    },
    end,
  ];
}

/** 退款进度 on 订单详情: every step with its time where the server knows it. */
export default function RefundTimeline({ refund }: { refund: OrderRefund }) {
  return (
    <View className="card" data-testid="refund-timeline">
      <Text className="card__title">退款进度</Text>
      {refundSteps(refund).map((s) => (
        <View key={s.key} className={`timeline__step timeline__step--${s.state}`} data-testid="refund-step">
          <View className="timeline__dot" />
          <Text className="timeline__label">{s.label}</Text>
          {s.at ? <Text className="timeline__at">{formatShortDateTime(s.at)}</Text> : null}
        </View>
      ))}
    </View>
  );
}
