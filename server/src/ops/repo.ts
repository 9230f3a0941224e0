import type { RowDataPacket } from 'mysql2/promise';
import type { Db } from '../db/pool';
import { ORDER_STATUS } from '../orders/types';
import { REFUND_STATUS, REFUND_STATUS_NAME } from '../refunds/repo';

type Row = RowDataPacket & Record<string, any>;

const LIST_MAX = 200;

/** Paid orders still without tickets after the grace the tickets consumer gets. */
export async function stuckPayments(db: Db, paidBefore: Date) {
  const [rows] = await db.query<Row[]>(
    `SELECT order_no, amount_fen, paid_at FROM orders WHERE status = ? AND paid_at <= ?
      ORDER BY paid_at LIMIT ?`,
    [ORDER_STATUS.PAID, paidBefore, LIST_MAX],
  );
  return rows.map((r) => ({
    orderNo: String(r.order_no),
    amountFen: r.amount_fen,
    paidAt: r.paid_at.toISOString(),
  }));
}

const REFUND_VIEW = `SELECT r.id, o.order_no, r.kind, r.out_refund_no, r.amount_fen, r.status, r.attempts, r.last_error,
    r.next_attempt_at, r.created_at FROM refunds r JOIN orders o ON o.id = r.order_id`;

function refundView(r: Row) {
  return {
    refundId: String(r.id),
    orderNo: String(r.order_no),
    kind: String(r.kind),
    outRefundNo: String(r.out_refund_no),
    amountFen: r.amount_fen,
    status: REFUND_STATUS_NAME[r.status],
    attempts: r.attempts,
    lastError: r.last_error,
    nextAttemptAt: r.next_attempt_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
  };
}

/** Refunds in a non-final state (requested, processing, abnormal) created before `before`. */
export async function stuckRefunds(db: Db, before: Date) {
  const [rows] = await db.query<Row[]>(
    `${REFUND_VIEW} WHERE r.status IN (?) AND r.created_at <= ? ORDER BY r.id LIMIT ?`,
    [[REFUND_STATUS.REQUESTED, REFUND_STATUS.PROCESSING, REFUND_STATUS.ABNORMAL], before, LIST_MAX],
  );
  return rows.map(refundView);
}

export async function refundById(db: Db, id: string) {
  const [rows] = await db.query<Row[]>(`${REFUND_VIEW} WHERE r.id = ?`, [id]);
  return rows[0] ? { ...refundView(rows[0]), statusCode: Number(rows[0].status) } : undefined;
}

/** Refunds handed to an operator and not resolved yet. */
export async function openRefundCases(db: Db) {
  const [rows] = await db.query<Row[]>(
    `SELECT c.refund_id, c.reason, c.opened_at, o.order_no, r.out_refund_no, r.amount_fen, r.status
       FROM refund_cases c JOIN refunds r ON r.id = c.refund_id JOIN orders o ON o.id = c.order_id
      WHERE c.state = 'open' ORDER BY c.opened_at LIMIT ?`,
    [LIST_MAX],
  );
  return rows.map((r) => ({
    refundId: String(r.refund_id),
    orderNo: String(r.order_no),
    outRefundNo: String(r.out_refund_no),
    amountFen: r.amount_fen,
    reason: String(r.reason),
    refundStatus: REFUND_STATUS_NAME[r.status],
    openedAt: r.opened_at.toISOString(),
  }));
}

export async function orderIdByNo(db: Db, orderNo: string): Promise<string | undefined> {
  const [rows] = await db.query<Row[]>('SELECT id FROM orders WHERE order_no = ?', [orderNo]);
  return rows[0] ? String(rows[0].id) : undefined;
}

export async function deadLetterById(db: Db, id: string) {
  const [rows] = await db.query<Row[]>(
    'SELECT id, queue, message_id, payload, state FROM dead_letters WHERE id = ?',
    [id],
  );
  return rows[0] as
    { id: string; queue: string; message_id: string; payload: string; state: string } | undefined;
}

/** Payments in another currency than CNY not refunded in full yet, with their refund if any. */
export async function foreignCurrencyPayments(db: Db) {
  const [rows] = await db.query<Row[]>(
    `SELECT p.id, o.order_no, p.transaction_id, p.amount_fen, p.currency, p.refunded_fen,
            COALESCE(p.success_time, p.created_at) AS received_at,
            r.id AS refund_id, r.status AS refund_status
       FROM payments p JOIN orders o ON o.id = p.order_id
       LEFT JOIN refunds r ON r.payment_id = p.id AND r.kind = 'currency'
      WHERE p.outcome = 'wrong_currency' AND p.refunded_fen < p.amount_fen ORDER BY p.id LIMIT ?`,
    [LIST_MAX],
  );
  return rows.map((r) => ({
    paymentId: String(r.id),
    orderNo: String(r.order_no),
    transactionId: String(r.transaction_id),
    amountFen: r.amount_fen,
    currency: String(r.currency),
    refundedFen: r.refunded_fen,
    refundId: r.refund_id === null ? null : String(r.refund_id),
    refundStatus: r.refund_status === null ? null : REFUND_STATUS_NAME[r.refund_status]!,
    receivedAt: r.received_at.toISOString(),
  }));
}
