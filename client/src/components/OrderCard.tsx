import { Text, View } from '@tarojs/components';
import { useCountdown } from '../hooks/useCountdown';
import { useLoad } from '../hooks/useLoad';
import { sessionContext, type SessionContext } from '../services/context';
import type { Order } from '@showtix/shared-types';
import { seatLabel } from '../services/shared';
import { formatYuan } from '../utils/money';
import { formatCountdown, formatDateTime } from '../utils/time';
import Poster from './Poster';
import { OrderBadge } from './StatusBadge';
import { tapTarget } from '../utils/a11y';

export function itemsSummary(o: Order): string {
  const seats = o.items.filter((i) => i.seatId);
  if (seats.length) {
    const first = seats
      .slice(0, 2)
      .map((i) => seatLabel({ section: i.section ?? '', row: i.row ?? '', number: i.number ?? '' }));
    return seats.length > 2 ? `${first.join('、')} 等 ${seats.length} 张` : first.join('、');
  }
  const zone = o.items[0]?.zoneName ?? '站席';
  return `${zone} × ${o.items.length}`;
}

/** Loads the show around a session for display; silent on failure (the card still shows). */
export function useSessionContext(sessionId: string | undefined): SessionContext | undefined {
  const load = () => (sessionId ? sessionContext(sessionId) : Promise.resolve(undefined));
  return useLoad(load, [sessionId]).data;
}

function PendingClock({ expireAt }: { expireAt: string }) {
  const left = useCountdown(expireAt);
  return (
    <Text className="order-card__clock">
      {left > 0 ? `剩余支付时间 ${formatCountdown(left)}` : '支付已超时'}
    </Text>
  );
}

export default function OrderCard({ order, onOpen }: { order: Order; onOpen: () => void }) {
  const ctx = useSessionContext(order.sessionId);
  const title = ctx?.show.title ?? '演出订单';
  return (
    <View className="order-card" data-testid="order-card" onClick={onOpen} {...tapTarget()}>
      <View className="order-card__head">
        <Text className="order-card__no">订单号 {order.orderNo}</Text>
        <OrderBadge status={order.status} />
      </View>
      <View className="order-card__body">
        <Poster
          id={ctx?.show.id ?? order.sessionId}
          title={title}
          posterUrl={ctx?.show.posterUrl ?? null}
          size="thumb"
        />
        <View className="order-card__main">
          <Text className="order-card__title">{title}</Text>
          {ctx ? <Text className="order-card__meta">{formatDateTime(ctx.session.startsAt)}</Text> : null}
          <Text className="order-card__meta">{itemsSummary(order)}</Text>
          {order.status === 'pending' ? <PendingClock expireAt={order.expireAt} /> : null}
        </View>
        <Text className="order-card__amount">{formatYuan(order.amountFen)}</Text>
      </View>
    </View>
  );
}
