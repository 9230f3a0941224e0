import type { OrderStatus, SessionInfo } from '@showtix/shared-types';
import { Text, View } from '@tarojs/components';
import { formatDateTime } from '../utils/time';

/**
 * What the organiser changed about a session, said where the fan looks at it: 已取消 (with the
 * state of the fan's own full refund, on an order) or 已延期 (the new date, and until when a
 * refund is in full).
 */
export default function SessionChangeNote({
  s,
  orderStatus,
  nowMs,
}: {
  s: SessionInfo;
  orderStatus?: OrderStatus;
  nowMs: number;
}) {
  if (s.status === 'cancelled') {
    const refund =
      orderStatus === undefined
        ? '已购票将全额退款'
        : orderStatus === 'refunded'
          ? '已全额退款'
          : orderStatus === 'paid' || orderStatus === 'ticketed'
            ? '全额退款处理中'
            : '';
    return (
      <View className="session-change session-change--cancelled" data-testid="session-change">
        <Text className="session-change__title">本场次已取消</Text>
        {refund ? <Text className="session-change__text">{refund}</Text> : null}
      </View>
    );
  }
  if (!s.postponedFrom) return null;
  const window = s.fullRefundUntil && Date.parse(s.fullRefundUntil) > nowMs;
  return (
    <View className="session-change" data-testid="session-change">
      <Text className="session-change__title">已延期至 {formatDateTime(s.startsAt)}</Text>
      <Text className="session-change__text">原定 {formatDateTime(s.postponedFrom)}</Text>
      {window ? (
        <Text className="session-change__text">{formatDateTime(s.fullRefundUntil!)} 前可全额退票</Text>
      ) : null}
    </View>
  );
}
