import { Text, View } from '@tarojs/components';
import type { Order, OrderRefund } from '@showtix/shared-types';
import { OrderBadge } from '../../components/StatusBadge';
import { useCountdown } from '../../hooks/useCountdown';
import { formatYuan } from '../../utils/money';
import { formatCountdown } from '../../utils/time';
import { refundOpen } from './RefundTimeline';

/** The refund's state in the fan's words, with the money it returns. */
export function refundText(r: OrderRefund): string {
  const money = `${formatYuan(r.amountFen)}${r.feeFen > 0 ? `（已扣手续费 ${formatYuan(r.feeFen)}）` : ''}`;
  switch (r.status) {
    case 'requested':
      return `退款申请已提交，预计退回 ${money}`;
    case 'processing':
      return `退款处理中，预计退回 ${money}`;
    case 'succeeded':
      return `${money} 已原路退回微信支付`;
    case 'abnormal':
      return '退款异常，客服将尽快处理';
    case 'closed':
      return '退款已关闭';
    default:
      return String(r.status);
  }
}

/** Some of the order's tickets are refunded or being refunded, the others not. */
function partlyRefunded(order: Order): boolean {
  const live = order.items.filter((it) => it.refundStatus && it.refundStatus !== 'closed').length;
  return live > 0 && live < order.items.length;
}

export default function StatusHead({ order, waiting }: { order: Order; waiting: boolean }) {
  const left = useCountdown(order.status === 'pending' ? order.expireAt : null);
  let text = '';
  if (waiting) text = '支付成功，正在出票…';
  else if (order.status === 'pending')
    text = left > 0 ? `请在 ${formatCountdown(left)} 内完成支付` : '支付已超时，订单即将取消';
  // While a refund is open its tickets are locked at the gate: never tell the fan to show them.
  else if (refundOpen(order.refund) && partlyRefunded(order)) text = '所选门票退票处理中，其余电子票仍可入场';
  else if (refundOpen(order.refund)) text = '退款处理中，电子票已停用';
  else if (order.status === 'paid') text = '支付成功，正在出票';
  else if (order.status === 'ticketed') text = '已出票，入场时请出示电子票';
  else if (order.status === 'cancelled') text = '订单已取消';
  else if (order.status === 'refunded') text = '订单已退款';
  return (
    <View
      className={`status-head status-head--${order.status}`}
      data-testid="order-status"
      data-status={order.status}
    >
      <OrderBadge status={waiting ? 'paid' : order.status} />
      <Text className="status-head__text">{text}</Text>
      {order.refund ? (
        <Text className="status-head__sub" data-testid="refund-status" data-refund={order.refund.status}>
          {refundText(order.refund)}
        </Text>
      ) : null}
    </View>
  );
}
