import type { Conn } from '../db/pool';
import { orders, releaseClaims, releaseItemClaims } from '../orders/repo';
import type { OrderRecord } from '../orders/types';
import { enqueue } from '../outbox/repo';
import { payments } from '../payments/repo';
import { createRefund } from '../refunds/repo';
import { refundedOrOpenFen } from '../refunds/items-repo';
import { moveItemTickets } from '../tickets/repo';
import { EXCHANGE_LIFECYCLE, move, ORDER_LIFECYCLE, TICKET_LIFECYCLE } from '../lifecycle/transitions';
import {
  EXCHANGE_STATUS,
  exchangeable,
  exchanges,
  freeExchangeItems,
  idHashesOf,
  itemsOfExchange,
  moveAttendeeClaims,
  nextExchangeSeq,
  ticketsOfOrder,
  type ExchangeRecord,
} from './repo';

/**
 * What the tickets consumer does with a paid order that is an exchange order:
 * - 'none': not an exchange order (or one already settled): issue as usual;
 * - 'issue': the old tickets were given up in this transaction: issue the new ones;
 * - 'failed': an old ticket was no longer valid (checked in meanwhile): nothing is issued, the
 *   exchange order is refunded in full and its units go back.
 */
export type ExchangeOutcome = 'none' | 'issue' | 'failed';

/** Refund numbers of an exchange: RX + order number + P + payment id (+ N + seq). */
export const exchangeRefundNo = (orderNo: string, paymentId: string, seq: number): string =>
  `RX${orderNo}P${paymentId}${seq > 1 ? `N${seq}` : ''}`;

/**
 * In the tickets consumer's transaction, which holds the exchange order's lock and has seen it
 * PAID: the old tickets are given up and the new ones issued in one commit, so a fan never has
 * both or neither. Lock order: the exchange order (caller), then the original order, then the
 * old tickets, as the refund path (original order, then tickets) and the exchange request do.
 */
export async function settleExchangeInTx(
  conn: Conn,
  order: OrderRecord,
  now: Date,
): Promise<ExchangeOutcome> {
  // A plain read first: every ticket issue passes here, and most orders are no exchange (a
  // locking read of a missing key would take a gap lock on it).
  const seen = await exchanges.byExchangeOrder(conn, order.id);
  if (!seen) return 'none';
  const ex = await exchanges.byId(conn, seen.id, { lock: true });
  if (ex?.status !== EXCHANGE_STATUS.PENDING) return 'none';
  const original = (await orders.byId(conn, ex.originalOrderId, { lock: true }))!;
  const itemIds = await itemsOfExchange(conn, ex.id);
  const old = await ticketsOfOrder(conn, original.id, { itemIds }, true);
  // Invariant: every old ticket is still valid and never admitted, under its row lock; a check-in
  // or a refund that came first wins, and then the exchange gives everything back.
  if (old.length !== itemIds.length || !old.every(exchangeable)) {
    await failExchange(conn, ex, order, now);
    return 'failed';
  }
  const moved = await moveItemTickets(conn, itemIds, TICKET_LIFECYCLE.exchange);
  if (moved !== itemIds.length)
    throw new Error(`exchange ${ex.id}: ${moved} of ${itemIds.length} tickets moved`);
  await releaseItemClaims(conn, original, old);
  const sameSession = String(ex.fromSessionId) === String(ex.toSessionId);
  const ids = await idHashesOf(
    conn,
    original.id,
    old.map((t) => t.position),
  );
  await moveAttendeeClaims(conn, {
    fromOrderId: original.id,
    toOrderId: order.id,
    sameSession,
    idHashes: ids,
  });
  const refundId = ex.diffFen < 0 ? await refundDifference(conn, ex, original, now) : undefined;
  await move(conn, 'exchanges', ex.id, EXCHANGE_LIFECYCLE.complete, {
    finished_at: now,
    ...(refundId ? { refund_id: refundId } : {}),
  });
  // The old seats go back on sale after commit, through the outbox (as a refund's do).
  // Redis learns the IDs' move the same way (a rebuild reads attendee_claims anyway).
  await enqueue(conn, 'inventory.release', original.id, {
    sessionId: original.sessionId,
    orderId: original.id,
    units: old.map((t) => t.seat_id ?? String(t.slot_no)),
    ...(ids.length ? { ids, idsTo: sameSession ? order.id : '' } : {}),
  });
  return 'issue';
}

/**
 * A cheaper seat: the difference goes back on the original payment, one refund per exchange
 * (numbered per payment; the over-refund check under the payment's lock, as order refunds do).
 */
async function refundDifference(
  conn: Conn,
  ex: ExchangeRecord,
  original: OrderRecord,
  now: Date,
): Promise<string> {
  const payment = await payments.appliedOfOrderLocked(conn, original.id);
  if (!payment) throw new Error(`exchange ${ex.id}: the original order has no payment`);
  const seq = await nextExchangeSeq(conn, payment.id);
  const { refund, created } = await createRefund(conn, {
    orderId: original.id,
    paymentId: payment.id,
    kind: 'exchange',
    seq,
    outRefundNo: exchangeRefundNo(original.orderNo, payment.id, seq),
    amountFen: -ex.diffFen,
    feeFen: 0,
    reason: '改签差价退款',
    requestedBy: `buyer:${ex.userId}`,
    now,
  });
  if ((await refundedOrOpenFen(conn, payment.id)) > payment.amountFen)
    throw new Error(`exchange ${ex.id}: refunds would exceed payment ${payment.id}`);
  if (created) await enqueue(conn, 'refund.requested', refund.id, { refundId: refund.id });
  return refund.id;
}

/**
 * The exchange cannot complete: the exchange order's claims are freed and it is refunded (its
 * whole payment, if any), the old tickets stay as they are and may be exchanged again.
 */
async function failExchange(conn: Conn, ex: ExchangeRecord, order: OrderRecord, now: Date): Promise<void> {
  await freeExchangeItems(conn, ex.id);
  await move(conn, 'orders', order.id, ORDER_LIFECYCLE.refund);
  await releaseClaims(conn, order);
  const payment = await payments.appliedOfOrderLocked(conn, order.id);
  let refundId: string | undefined;
  if (payment) {
    const { refund, created } = await createRefund(conn, {
      orderId: order.id,
      paymentId: payment.id,
      kind: 'exchange',
      seq: 1,
      outRefundNo: exchangeRefundNo(order.orderNo, payment.id, 1),
      amountFen: payment.amountFen,
      feeFen: 0,
      reason: '改签未成功，退还差价',
      requestedBy: 'system:exchange',
      now,
    });
    refundId = refund.id;
    if (created) await enqueue(conn, 'refund.requested', refund.id, { refundId: refund.id });
  }
  await move(conn, 'exchanges', ex.id, EXCHANGE_LIFECYCLE.fail, {
    finished_at: now,
    error: 'old ticket no longer valid',
    ...(refundId ? { refund_id: refundId } : {}),
  });
  await enqueue(conn, 'inventory.release', order.id, { sessionId: order.sessionId, orderId: order.id });
}
