import type { ResultSetHeader } from 'mysql2/promise';
import { ER_DUP_ENTRY, sqlErrno, type Conn, type Db } from '../db/pool';
import { findOne, type RowSource } from '../db/find-one';
import { ORDER_STATUS } from '../orders/types';
import { camelRow, type Rows } from '../db/rows';
import type { PaymentOutcome, PaymentRow } from './rows';

export type { PaymentOutcome } from './rows';

/** A payment as services see it (payments/rows.ts: the row it is mapped from). */
export interface PaymentRecord {
  id: string;
  orderId: string;
  transactionId: string;
  amountFen: number;
  /** What WeChat took it in (CNY unless a notification said otherwise). */
  currency: string;
  refundedFen: number;
  outcome: PaymentOutcome;
}

export async function setPrepay(db: Db, orderId: string, prepayId: string, now: Date): Promise<void> {
  await db.query(
    'UPDATE orders SET prepay_id = ?, pay_requested_at = COALESCE(pay_requested_at, ?) WHERE id = ?',
    [prepayId, now, orderId],
  );
}

/** Money received, as its payments row is first written. */
export interface NewPayment {
  orderId: string;
  transactionId: string;
  amountFen: number;
  currency: string;
  payerOpenid: string | null;
  successTime: Date | null;
  outcome: PaymentOutcome;
}

const PAYMENT_INSERT =
  'INSERT INTO payments (order_id, transaction_id, amount_fen, currency, payer_openid, success_time, outcome) VALUES ?';
const paymentValues = (p: NewPayment) => [
  p.orderId,
  p.transactionId,
  p.amountFen,
  p.currency,
  p.payerOpenid,
  p.successTime,
  p.outcome,
];

/** Records money received; undefined when this transaction was recorded before (a duplicate). */
export async function insertPayment(conn: Conn, p: NewPayment): Promise<PaymentRecord | undefined> {
  try {
    const [res] = await conn.query<ResultSetHeader>(PAYMENT_INSERT, [[paymentValues(p)]]);
    return {
      id: String(res.insertId),
      orderId: p.orderId,
      transactionId: p.transactionId,
      amountFen: p.amountFen,
      currency: p.currency,
      refundedFen: 0,
      outcome: p.outcome,
    };
  } catch (err) {
    if (sqlErrno(err) === ER_DUP_ENTRY) return undefined;
    throw err;
  }
}

/**
 * Payments received for live orders, in one statement (payments/batch.ts). Not IGNORE: a
 * transaction recorded before refuses the whole statement, and the caller goes one by one.
 */
export async function insertPayments(conn: Conn, ps: NewPayment[]): Promise<void> {
  if (ps.length > 0) await conn.query(PAYMENT_INSERT, [ps.map(paymentValues)]);
}

const PAYMENTS: RowSource = {
  table: 'payments',
  columns: 'id, order_id, transaction_id, amount_fen, currency, refunded_fen, outcome',
};

/** The row under camelCase names, the same values. */
const toPayment: (r: PaymentRow) => PaymentRecord = camelRow;

const findPayment = (db: Db | Conn, where: string, params: unknown[], lock?: boolean) =>
  findOne<PaymentRow>(db, PAYMENTS, where, params, lock).then((r) => r && toPayment(r));

/** The one-payment lookups, by the keys the services hold. */
export const payments = {
  byId: (db: Db | Conn, id: string, o: { lock?: boolean } = {}) => findPayment(db, 'id = ?', [id], o.lock),
  /** The payment that paid the order (applied, or a late one honoured), locked. */
  appliedOfOrderLocked: (conn: Conn, orderId: string) =>
    findPayment(conn, "order_id = ? AND outcome IN ('applied', 'late_applied')", [orderId], true),
};

/**
 * A refund of this payment succeeded. The CHECK (refunded_fen <= amount_fen) makes refunding
 * more than was paid impossible; status 2 refunded in part, 3 in full.
 */
export async function addRefunded(conn: Conn, paymentId: string, fen: number): Promise<void> {
  await conn.query(
    'UPDATE payments SET refunded_fen = refunded_fen + ?, status = IF(refunded_fen >= amount_fen, 3, 2) WHERE id = ?',
    [fen, paymentId],
  );
}

export async function setOutcome(conn: Conn, paymentId: string, outcome: PaymentOutcome): Promise<void> {
  await conn.query('UPDATE payments SET outcome = ? WHERE id = ?', [outcome, paymentId]);
}

/** Pending orders whose payment began a while ago with no notification: ask WeChat. */
/** Pending orders whose payment started before `startedBefore` and not asked about since `checkedBefore`, oldest first. */
export async function paymentsToCheck(
  db: Db,
  startedBefore: Date,
  checkedBefore: Date,
  limit: number,
): Promise<{ id: string; orderNo: string }[]> {
  const [rows] = await db.query<Rows<{ id: string; order_no: string }>>(
    `SELECT id, order_no FROM orders WHERE status = ? AND pay_requested_at <= ?
        AND (pay_checked_at IS NULL OR pay_checked_at <= ?) ORDER BY pay_requested_at LIMIT ?`,
    [ORDER_STATUS.PENDING, startedBefore, checkedBefore, limit],
  );
  return rows.map((r) => ({ id: String(r.id), orderNo: r.order_no }));
}

export async function markChecked(db: Db, orderIds: readonly string[], now: Date): Promise<void> {
  if (orderIds.length === 0) return;
  await db.query('UPDATE orders SET pay_checked_at = ? WHERE id IN (?)', [now, orderIds]);
}
