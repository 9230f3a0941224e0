import type { WechatConfig } from '../config/wechat';
import type { OrderRecord } from '../orders/types';
import type { Conn } from '../db/pool';
import { moveMany, ORDER_LIFECYCLE } from '../lifecycle/transitions';
import { enqueueAll, type OutboxEntry } from '../outbox/repo';
import type { WxTransaction } from '../wechat/pay';
import type { NewPayment, PaymentOutcome } from './repo';

/** What a money receipt came to (the payments_total metric's outcomes). */
export type ApplyResult = 'applied' | 'duplicate' | 'late' | 'double_payment' | 'wrong_currency';

/** The only currency our orders are priced and paid in. */
export const CURRENCY = 'CNY';

/** The payments row of a WeChat transaction for our order, with what we made of it. */
export function paymentRow(
  orderId: string,
  tx: WxTransaction,
  currency: string,
  now: Date,
  outcome: PaymentOutcome,
): NewPayment {
  return {
    orderId,
    transactionId: tx.transaction_id!,
    amountFen: tx.amount!.total,
    currency,
    payerOpenid: tx.payer?.openid ?? null,
    successTime: tx.success_time ? new Date(tx.success_time) : now,
    outcome,
  };
}

/**
 * Why a validly signed transaction is not a payment of this order (another merchant or app, not
 * a success, no transaction id, an order we do not know, another amount); undefined when it is.
 */
export function suspicion(wechat: WechatConfig, tx: WxTransaction, order: OrderRecord | undefined) {
  return tx.mchid !== wechat.mchid
    ? 'mchid'
    : tx.appid !== wechat.appid
      ? 'appid'
      : tx.trade_state !== 'SUCCESS'
        ? `trade_state ${tx.trade_state}`
        : !tx.transaction_id
          ? 'no transaction_id'
          : !order
            ? 'unknown order'
            : tx.amount?.total !== order.amountFen
              ? `amount ${tx.amount?.total} != ${order.amountFen}`
              : undefined;
}

/** What a payment applied to a live order sends on: its tickets, and the fan's notice. */
const paidEntries = (order: OrderRecord): OutboxEntry[] => [
  { topic: 'order.paid', aggregateId: order.id, payload: { orderId: order.id } },
  {
    topic: 'notice.send',
    aggregateId: order.id,
    payload: { userId: order.userId, template: 'paid', orderId: order.id },
  },
];

/**
 * Live orders the caller locked and found PENDING, their payments recorded, become paid: moved,
 * with their outbox rows in one statement (applyTransaction: one order; batch.ts: a batch). The
 * notify path's statements bound how many payments become tickets per second (bench/pay).
 */
export async function markPaid(conn: Conn, paid: OrderRecord[], paidAt: Date): Promise<void> {
  await moveMany(
    conn,
    'orders',
    paid.map((o) => o.id),
    ORDER_LIFECYCLE.pay,
    { paid_at: paidAt },
  );
  await enqueueAll(conn, paid.flatMap(paidEntries));
}
