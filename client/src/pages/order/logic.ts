import Taro from '@tarojs/taro';
import type { Order } from '@showtix/shared-types';
import type { SessionContext } from '../../services/context';
import { formatYuan, percentOfFen } from '../../utils/money';
import { refundFeePercent } from '../../utils/refund';
import { handedOn, offersTicketRefund } from './TicketRefundPicker';

/**
 * The fee a refund asked now would cost (percent; a postponed session's window makes it 0) and
 * whether to offer one: a cancelled session's orders are refunded in full without asking.
 */
export function refundOffer(order: Order, ctx: SessionContext | undefined) {
  const feePercent = ctx
    ? refundFeePercent(ctx.show.refundRules, ctx.session.startsAt, Date.now(), ctx.session.fullRefundUntil)
    : 100;
  // An exchange's order (改签) holds only the price difference: its tickets are not refundable.
  const live = (order.status === 'paid' || order.status === 'ticketed') && !order.exchangedFrom;
  // The whole order in one tap only while all of it is the buyer's: the server refuses a
  // transferred ticket and no longer counts an exchanged one (the picker offers the others).
  const whole = !order.items.some(handedOn);
  const refundable =
    live && whole && !order.refund && feePercent < 100 && ctx?.session.status !== 'cancelled';
  return { feePercent, refundable, whole };
}

export async function confirmCancel(): Promise<boolean> {
  const ok = await Taro.showModal({
    title: '取消订单',
    content: '取消后座位将释放给其他观众，确定取消吗？',
    confirmText: '取消订单',
    cancelText: '再想想',
  });
  return ok.confirm;
}

/** The whole order's refund, with its fee under the tier in force, confirmed by the fan. */
export async function confirmRefund(order: Order, feePercent: number): Promise<boolean> {
  const fee = percentOfFen(order.amountFen, feePercent);
  const content =
    fee > 0
      ? `按退票规则收取手续费 ${formatYuan(fee)}，预计退回 ${formatYuan(order.amountFen - fee)}。`
      : `将全额退回 ${formatYuan(order.amountFen)}。`;
  const ok = await Taro.showModal({
    title: '申请退款',
    content,
    confirmText: '确认退款',
    cancelText: '不退了',
  });
  return ok.confirm;
}

/** Which of 订单详情's actions the order offers now. */
export function orderView(order: Order, ctx: SessionContext | undefined) {
  const offer = refundOffer(order, ctx);
  const { feePercent } = offer;
  const perTicket =
    offersTicketRefund(order) &&
    feePercent < 100 &&
    ctx?.session.status !== 'cancelled' &&
    !order.exchangedFrom;
  const live = (order.status === 'paid' || order.status === 'ticketed') && !order.exchangedFrom;
  // The whole order in one tap while nothing of it is refunded; chosen tickets besides.
  const refundable = offer.refundable;
  const buyAgain = order.status === 'cancelled' || order.status === 'refunded';
  // A per-ticket refund is offered on ticketed orders only, which have actions anyway.
  const hasActions =
    order.status === 'pending' || order.status === 'ticketed' || refundable || (buyAgain && Boolean(ctx));
  const feeLine = live && (perTicket || (!order.refund && offer.whole));
  return { feePercent, perTicket, refundable, buyAgain, hasActions, feeLine };
}

export type OrderView = ReturnType<typeof orderView>;
