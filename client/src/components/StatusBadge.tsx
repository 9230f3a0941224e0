import type { OrderStatus, SessionStatus } from '@showtix/shared-types';
import { Text } from '@tarojs/components';

const SESSION: Record<SessionStatus, { text: string; tone: string }> = {
  on_sale: { text: '售票中', tone: 'hot' },
  presale: { text: '即将开售', tone: 'soon' },
  sold_out: { text: '已售罄', tone: 'muted' },
  ended: { text: '已结束', tone: 'muted' },
  cancelled: { text: '已取消', tone: 'muted' },
};

const ORDER: Record<OrderStatus, { text: string; tone: string }> = {
  pending: { text: '待支付', tone: 'warn' },
  paid: { text: '出票中', tone: 'soon' },
  ticketed: { text: '已出票', tone: 'ok' },
  cancelled: { text: '已取消', tone: 'muted' },
  refunded: { text: '已退款', tone: 'muted' },
};

export function SessionBadge({ status }: { status: SessionStatus }) {
  const v = SESSION[status] ?? { text: status, tone: 'muted' };
  return <Text className={`badge badge--${v.tone}`}>{v.text}</Text>;
}

export function OrderBadge({ status }: { status: OrderStatus }) {
  const v = ORDER[status] ?? { text: status, tone: 'muted' };
  return <Text className={`badge badge--${v.tone}`}>{v.text}</Text>;
}
