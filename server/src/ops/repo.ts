import type { RowDataPacket } from 'mysql2/promise';
import type { Db } from '../db/pool';
import { ORDER_STATUS } from '../orders/types';
import { REFUND_STATUS, REFUND_STATUS_NAME } from '../refunds/repo';

/** A paid orders row waiting for its tickets (the columns read). */
interface StuckPaymentRow extends RowDataPacket {
  order_no: string;
  amount_fen: number;
  paid_at: Date;
}

/** A refunds row with its order's number (REFUND_VIEW). */
interface RefundViewRow extends RowDataPacket {
  id: string;
  order_no: string;
  kind: string;
  out_refund_no: string;
  amount_fen: number;
  status: number;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date | null;
  created_at: Date;
}

/** An open refund_cases row with its refund and order. */
interface RefundCaseRow extends RowDataPacket {
  refund_id: string;
  reason: string;
  opened_at: Date;
  order_no: string;
  out_refund_no: string;
  amount_fen: number;
  status: number;
}

/** One dead_letters row (the columns read). */
interface DeadLetterRow extends RowDataPacket {
  id: string;
  queue: string;
  message_id: string;
  payload: string;
  state: string;
}

/** A payments row in another currency, with its order and its currency refund if any. */
interface ForeignPaymentRow extends RowDataPacket {
  id: string;
  order_no: string;
  transaction_id: string;
  amount_fen: number;
  currency: string;
  refunded_fen: number;
  received_at: Date;
  refund_id: string | null;
  refund_status: number | null;
}

const LIST_MAX = 200;

/** Paid orders still without tickets after the grace the tickets consumer gets. */
export async function stuckPayments(db: Db, paidBefore: Date) {
  const [rows] = await db.query<StuckPaymentRow[]>(
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

function refundView(r: RefundViewRow) {
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
  const [rows] = await db.query<RefundViewRow[]>(
    `${REFUND_VIEW} WHERE r.status IN (?) AND r.created_at <= ? ORDER BY r.id LIMIT ?`,
    [[REFUND_STATUS.REQUESTED, REFUND_STATUS.PROCESSING, REFUND_STATUS.ABNORMAL], before, LIST_MAX],
  );
  return rows.map(refundView);
}

export async function refundById(db: Db, id: string) {
  const [rows] = await db.query<RefundViewRow[]>(`${REFUND_VIEW} WHERE r.id = ?`, [id]);
  return rows[0] ? { ...refundView(rows[0]), statusCode: Number(rows[0].status) } : undefined;
}

/** Refunds handed to an operator and not resolved yet. */
export async function openRefundCases(db: Db) {
  const [rows] = await db.query<RefundCaseRow[]>(
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
  const [rows] = await db.query<(RowDataPacket & { id: string })[]>(
    'SELECT id FROM orders WHERE order_no = ?',
    [orderNo],
  );
  return rows[0] ? String(rows[0].id) : undefined;
}

export async function deadLetterById(db: Db, id: string) {
  const [rows] = await db.query<DeadLetterRow[]>(
    'SELECT id, queue, message_id, payload, state FROM dead_letters WHERE id = ?',
    [id],
  );
  const r = rows[0];
  return r && { id: r.id, queue: r.queue, messageId: r.message_id, payload: r.payload, state: r.state };
}

/** Payments in another currency than CNY not refunded in full yet, with their refund if any. */
export async function foreignCurrencyPayments(db: Db) {
  const [rows] = await db.query<ForeignPaymentRow[]>(
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
