import type { RowDataPacket } from 'mysql2/promise';
import { inTransaction, type Conn, type Db } from '../db/pool';
import { appError } from '../errors';
import { findOrder } from '../orders/repo';
import { ORDER_STATUS, type OrderRow } from '../orders/types';
import { enqueue } from '../outbox/repo';
import { findPayment, type PaymentRow } from '../payments/repo';
import { addRefundItems, nextRefundSeq, refundableItems, refundedOrOpenFen } from '../refunds/items-repo';
import { pickItems } from '../refunds/pick';
import { createRefund, findRefund, type RefundRow } from '../refunds/repo';
import { outRefundNo } from '../refunds/naming';
import { admittedCount, lockOrderTickets, moveItemTickets } from '../tickets/repo';
import { TICKET_LIFECYCLE } from '../lifecycle/transitions';
import { REFUND_STATUS, TICKET_STATUS } from '../lifecycle/statuses';
import { exchangeRefundNo } from './complete';
import { EXCHANGE_STATUS, findExchange, freeCancelledExchanges } from './repo';

/** An exchange chain is short (an exchange of an exchange...); this bounds a corrupt one. */
const MAX_CHAIN = 16;

/** One payment that holds part of an exchange order's value. */
interface Source {
  order: OrderRow;
  payment: PaymentRow;
  /** What it can still give back (paid, less its refunds not closed). */
  left: number;
}

/**
 * A session cancel's full refund of an exchange order (改签). Its tickets' value is held by
 * several payments: the exchange order's own (the difference it paid, if any), then the
 * original order's (the old tickets' price, less a cheaper seat's difference refunded), then the
 * original's original for an exchange of an exchange. Each gives back its share by a refund of
 * its own (stable out_refund_no per payment); the first carries the order's items, so its
 * success voids the tickets and frees the seats as an order refund does. Every refund is
 * recorded against the exchange order, so a retry (a crash before the run marked its row) finds
 * them and answers the first, refunding nothing twice.
 * undefined: not an exchange order (the usual order refund applies).
 */
export async function refundCancelledExchange(
  db: Db,
  orderId: string,
  o: { by: string; reason: string; now: Date },
): Promise<{ refund: RefundRow; fen: number } | undefined> {
  const refund = await inTransaction(db, (conn) => refundInTx(conn, orderId, o));
  if (!refund) return undefined;
  // What this refunds in all (its shares, whichever pass made them): the change's row counts it.
  const [[r]] = await db.query<RowDataPacket[]>(
    'SELECT COALESCE(SUM(amount_fen), 0) AS fen FROM refunds WHERE order_id = ? AND requested_by = ? AND status <> ?',
    [orderId, o.by, REFUND_STATUS.CLOSED],
  );
  return { refund, fen: Number(r!.fen) };
}

async function refundInTx(
  conn: Conn,
  orderId: string,
  o: { by: string; reason: string; now: Date },
): Promise<RefundRow | undefined> {
  // Lock order as the exchange's completion: the exchange order, then its original(s).
  const order = await findOrder(conn, 'id = ?', [orderId], true);
  const ex = await findExchange(conn, 'exchange_order_id = ? AND status = ?', [
    orderId,
    EXCHANGE_STATUS.DONE,
  ]);
  if (!order || !ex) return undefined;
  await freeCancelledExchanges(conn, order.id);
  const pick = pickItems(await refundableItems(conn, order.id), undefined);
  if (pick.kind === 'again') {
    const again = pick.refundId && (await findRefund(conn, 'id = ?', [pick.refundId]));
    if (!again) throw appError('ORDER_STATE_INVALID', undefined, '订单当前状态不能退票');
    return again;
  }
  if (order.status !== ORDER_STATUS.TICKETED && order.status !== ORDER_STATUS.PAID)
    throw appError('ORDER_STATE_INVALID', undefined, '订单当前状态不能退票');
  if (pick.items.some((i) => i.in_exchange)) throw appError('EXCHANGE_IN_PROGRESS');
  if ((await admittedCount(conn, await lockOrderTickets(conn, order.id))) > 0)
    throw appError('ORDER_STATE_INVALID', undefined, '门票已检票入场，不能退票');
  const value = pick.items.reduce((s, i) => s + i.price_fen, 0);
  const shares = allocate(await sourcesOf(conn, order), value);
  let first: RefundRow | undefined;
  for (const { src, fen } of shares) {
    const r = await refundShare(conn, order, src, fen, !first, o);
    if (!first) {
      first = r;
      await addRefundItems(conn, r.id, order.id, pick.items);
    }
    // Every fen accounted for: no payment gives back more than it took (else all rolls back).
    if ((await refundedOrOpenFen(conn, src.payment.id)) > src.payment.amount_fen)
      throw appError('REFUND_EXCEEDS_PAID');
  }
  if (!first) throw appError('ORDER_STATE_INVALID', undefined, '未找到该订单的支付记录');
  await moveItemTickets(
    conn,
    pick.items.map((i) => i.id),
    TICKET_LIFECYCLE.holdForRefund,
  );
  return first;
}

/** The payments behind an exchange order, its own first, then along its originals (locked). */
async function sourcesOf(conn: Conn, order: OrderRow): Promise<Source[]> {
  const out: Source[] = [];
  let cur: OrderRow | undefined = order;
  for (let i = 0; cur && i < MAX_CHAIN; i++) {
    const payment = await findPayment(
      conn,
      "order_id = ? AND outcome IN ('applied', 'late_applied')",
      [cur.id],
      true,
    );
    if (payment)
      out.push({
        order: cur,
        payment,
        left: payment.amount_fen - (await refundedOrOpenFen(conn, payment.id)),
      });
    const ex = await findExchange(conn, 'exchange_order_id = ? AND status = ?', [
      cur.id,
      EXCHANGE_STATUS.DONE,
    ]);
    cur = ex ? await findOrder(conn, 'id = ?', [ex.original_order_id], true) : undefined;
  }
  return out;
}

/** Splits `value` over the sources in order; refused if they cannot give it all back. */
function allocate(sources: Source[], value: number): { src: Source; fen: number }[] {
  const shares: { src: Source; fen: number }[] = [];
  let rest = value;
  for (const src of sources) {
    const fen = Math.min(rest, Math.max(0, src.left));
    if (fen > 0) shares.push({ src, fen });
    rest -= fen;
  }
  if (rest > 0) throw appError('REFUND_EXCEEDS_PAID');
  return shares;
}

/**
 * One share: the first an order refund (it carries the items; numbered among the payment's order
 * refunds), the others exchange refunds of their payment. Both recorded against the exchange
 * order; WeChat is asked on the payment's own trade (refunds/service.ts execute).
 */
async function refundShare(
  conn: Conn,
  order: OrderRow,
  src: Source,
  fen: number,
  carriesItems: boolean,
  o: { by: string; reason: string; now: Date },
): Promise<RefundRow> {
  const seq = carriesItems
    ? await nextRefundSeq(conn, src.payment.id)
    : await nextExchangeSeq(conn, src.payment.id);
  const { refund, created } = await createRefund(conn, {
    orderId: order.id,
    paymentId: src.payment.id,
    kind: carriesItems ? 'order' : 'exchange',
    seq,
    outRefundNo: carriesItems
      ? outRefundNo(src.order.order_no, src.payment.id, 'order', seq)
      : exchangeRefundNo(src.order.order_no, src.payment.id, seq),
    amountFen: fen,
    feeFen: 0,
    reason: o.reason,
    requestedBy: o.by,
    now: o.now,
  });
  if (created) await enqueue(conn, 'refund.requested', refund.id, { refundId: refund.id });
  return refund;
}

async function nextExchangeSeq(conn: Conn, paymentId: string): Promise<number> {
  const [[n]] = await conn.query<RowDataPacket[]>(
    "SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM refunds WHERE payment_id = ? AND kind = 'exchange'",
    [paymentId],
  );
  return Number(n!.seq);
}

/**
 * Whether every item of the order was exchanged (改签) for another order's: nothing of it is left
 * to refund here (its value went with the exchange order, refunded on its own).
 */
export async function exchangedInFull(db: Db, orderId: string): Promise<boolean> {
  const [[r]] = await db.query<RowDataPacket[]>(
    `SELECT COUNT(*) AS n, COALESCE(SUM(EXISTS (SELECT 1 FROM tickets t
              WHERE t.order_item_id = i.id AND t.transferred_from IS NULL AND t.status = ?)), 0) AS x
       FROM order_items i WHERE i.order_id = ?`,
    [TICKET_STATUS.EXCHANGED, orderId],
  );
  return Number(r!.n) > 0 && Number(r!.n) === Number(r!.x);
}
