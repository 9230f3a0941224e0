import { Button, Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import type { Order, OrderItem } from '@showtix/shared-types';
import { formatYuan, percentOfFen } from '../../utils/money';
import { disabledWhen, flag } from '../../utils/flag';
import { itemLabel } from './ItemsCard';
import { PickRow, usePicks } from './PickRow';

/**
 * An item whose ticket left this order's hands: transferred to someone else or on offer (转赠),
 * or exchanged (改签) for a ticket of another order. The server refunds none of them here.
 */
export const handedOn = (it: OrderItem): boolean =>
  Boolean(it.transferred || it.transferring || it.exchanged);

/**
 * An item whose ticket can still be refunded: issued, not in a refund (a closed one gave it back),
 * not handed on (转赠, 改签).
 */
export function refundableItems(order: Order): OrderItem[] {
  return order.items.filter(
    (it) => it.ticketId && (!it.refundStatus || it.refundStatus === 'closed') && !handedOn(it),
  );
}

/**
 * Per-ticket refunds offered: a ticketed order of several tickets, or one some of whose tickets
 * were refunded already. A single-ticket order keeps the plain 申请退款.
 */
export function offersTicketRefund(order: Order): boolean {
  return (
    order.status === 'ticketed' &&
    refundableItems(order).length > 0 &&
    (order.items.length > 1 || Boolean(order.refund))
  );
}

/**
 * 退票 of chosen tickets: one check box per ticket with its fee and the money back under the
 * tier in force. The total is the fee on the chosen tickets together (rounded down, as the
 * server charges it); the others stay valid.
 */
export default function TicketRefundPicker({
  order,
  feePercent,
  busy,
  onRefund,
}: {
  order: Order;
  feePercent: number;
  busy: boolean;
  /** Makes the refund of these tickets, once the fan confirmed it. */
  onRefund: (ticketIds: string[]) => Promise<unknown>;
}) {
  const items = refundableItems(order);
  const [chosen, toggle] = usePicks();
  const gross = items.filter((it) => chosen.includes(it.ticketId!)).reduce((s, it) => s + it.priceFen, 0);
  const fee = percentOfFen(gross, feePercent);
  const confirm = async () => {
    const n = chosen.length;
    const ok = await Taro.showModal({
      title: '退票',
      content:
        fee > 0
          ? `所选 ${n} 张按退票规则收取手续费 ${formatYuan(fee)}，预计退回 ${formatYuan(gross - fee)}。其余门票仍可入场。`
          : `所选 ${n} 张将全额退回 ${formatYuan(gross - fee)}。其余门票仍可入场。`,
      confirmText: '确认退票',
      cancelText: '不退了',
    });
    if (ok.confirm) await onRefund(chosen);
  };
  return (
    <View className="card refund-picker" data-testid="refund-picker">
      <Text className="card__title">选择要退的门票</Text>
      {items.map((it) => {
        const on = chosen.includes(it.ticketId!);
        const itemFee = percentOfFen(it.priceFen, feePercent);
        return (
          <PickRow
            key={it.ticketId}
            on={on}
            kind="checkbox"
            testid="refund-pick"
            ticket={it.ticketId}
            onPick={() => toggle(it.ticketId!)}
          >
            <View className="line__main">
              <Text className="line__label">{itemLabel(it)}</Text>
              <Text className="line__sub">
                {itemFee > 0 ? `手续费 ${formatYuan(itemFee)}，` : '免手续费，'}退回{' '}
                {formatYuan(it.priceFen - itemFee)}
              </Text>
            </View>
            <Text className="line__price">{formatYuan(it.priceFen)}</Text>
          </PickRow>
        );
      })}
      <Button
        className="btn btn--primary btn--wide"
        data-testid="refund-tickets"
        loading={flag(busy)}
        {...disabledWhen(busy || chosen.length === 0)}
        onClick={() => void (chosen.length > 0 && confirm())}
      >
        {chosen.length === 0 ? '请选择门票' : `退 ${chosen.length} 张，预计退回 ${formatYuan(gross - fee)}`}
      </Button>
    </View>
  );
}
