import { Text, View } from '@tarojs/components';
import type { Order, OrderItem } from '@showtix/shared-types';
import AttendeeLine from '../../components/AttendeeLine';
import { seatLabel } from '../../services/shared';
import { formatYuan } from '../../utils/money';

/** An item's refund in a word, beside its line (per-ticket refunds). */
const ITEM_REFUND: Partial<Record<string, string>> = {
  requested: '退票中',
  processing: '退票中',
  abnormal: '退款异常',
  succeeded: '已退票',
};

/** An item's place as its ticket lists name it: the seat, or the standing zone. */
export const itemLabel = (it: OrderItem) =>
  it.seatId
    ? seatLabel({ section: it.section ?? '', row: it.row ?? '', number: it.number ?? '' })
    : (it.zoneName ?? '');

/** 票品明细: one line per seat or unit, with its attendee and its own refund, then the total. */
export default function ItemsCard({ order }: { order: Order }) {
  return (
    <View className="card">
      <Text className="card__title">票品明细</Text>
      {order.items.map((it, i) => (
        <View key={i} className="line">
          <View className="line__main">
            <Text className="line__label">{itemLabel(it)}</Text>
            <AttendeeLine attendee={it.attendee} className="line__sub" testid="item-attendee" />
          </View>
          {it.transferred || it.transferring ? (
            <Text className="line__tag" data-testid="item-transfer">
              {it.transferred ? '已转赠' : '转赠中'}
            </Text>
          ) : null}
          {it.exchanged ? (
            <Text className="line__tag" data-testid="item-exchanged">
              已改签
            </Text>
          ) : null}
          {it.refundStatus && ITEM_REFUND[it.refundStatus] ? (
            <Text className="line__tag" data-testid="item-refund">
              {ITEM_REFUND[it.refundStatus]}
            </Text>
          ) : null}
          <Text className="line__price">{formatYuan(it.priceFen)}</Text>
        </View>
      ))}
      <View className="line line--total">
        <Text className="line__label">合计</Text>
        <Text className="line__price" data-testid="order-amount">
          {formatYuan(order.amountFen)}
        </Text>
      </View>
    </View>
  );
}
