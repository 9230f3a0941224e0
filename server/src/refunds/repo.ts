import type { ResultSetHeader } from 'mysql2/promise';
import { ER_DUP_ENTRY, sqlErrno, type Conn, type Db } from '../db/pool';
import { byKey } from '../db/sql';
import { findOne, type RowSource } from '../db/find-one';
import { REFUND_STATUS } from '../lifecycle/statuses';
import { SESSION_STATUS } from '../catalog/types';
import { camelRow, type Rows } from '../db/rows';
import type { RefundKind, RefundRow } from './rows';

export { REFUND_STATUS };
export const REFUND_STATUS_NAME = ['requested', 'processing', 'succeeded', 'abnormal', 'closed'] as const;

/**
 * An order refund in one of these states makes the tickets of its items inadmissible: open
 * (requested, at WeChat, abnormal) or done. Only CLOSED (WeChat refused it for good) gives them back.
 */
export const REFUND_BLOCKS_ADMISSION = [
  REFUND_STATUS.REQUESTED,
  REFUND_STATUS.PROCESSING,
  REFUND_STATUS.ABNORMAL,
  REFUND_STATUS.SUCCESS,
];

export type { RefundKind } from './rows';

/** The refunds of money we cannot keep: always the whole payment, made by the system. */
export type PaymentRefundKind = Exclude<RefundKind, 'order' | 'exchange' | 'fee'>;

/** A refund as services see it (refunds/rows.ts: the row it is mapped from). */
export interface RefundRecord {
  id: string;
  orderId: string;
  paymentId: string;
  kind: RefundKind;
  /** Numbers the order refunds of a payment (1 for the first and for every other kind). */
  seq?: number;
  outRefundNo: string;
  refundId: string | null;
  amountFen: number;
  feeFen: number;
  status: number;
  reason: string | null;
  requestedBy: string;
  createdAt: Date;
  finishedAt: Date | null;
  /** Sends WeChat refused so far (absent on rows read before migration 0010's columns existed). */
  attempts?: number;
}

const COLUMNS = `id, order_id, payment_id, kind, seq, out_refund_no, refund_id, amount_fen, fee_fen, status, reason,
  requested_by, created_at, finished_at, attempts`;

// A payment can carry refunds of several kinds; a lookup by payment alone answers the latest.
const REFUNDS: RowSource = { table: 'refunds', columns: COLUMNS, orderBy: 'id DESC' };

/** The row under camelCase names, the same values. */
const toRefund: (r: RefundRow) => RefundRecord = camelRow;

const findRefund = (db: Db | Conn, where: string, params: unknown[], lock?: boolean) =>
  findOne<RefundRow>(db, REFUNDS, where, params, lock).then((r) => r && toRefund(r));

/** The one-refund lookups, by the keys the services hold. */
export const refunds = {
  byId: (db: Db | Conn, id: string, o: { lock?: boolean } = {}) => findRefund(db, 'id = ?', [id], o.lock),
  /** WeChat's notifications name our out_refund_no. */
  byOutRefundNo: (db: Db | Conn, outRefundNo: string) => findRefund(db, 'out_refund_no = ?', [outRefundNo]),
};

/**
 * One refund per payment, kind and number: asking again answers the refund already made (the
 * system's refunds are always number 1; order refunds are numbered under the payment's lock).
 */
export async function createRefund(
  conn: Conn,
  r: {
    orderId: string;
    paymentId: string;
    kind: RefundKind;
    seq: number;
    outRefundNo: string;
    amountFen: number;
    feeFen: number;
    reason: string;
    requestedBy: string;
    now: Date;
  },
): Promise<{ refund: RefundRecord; created: boolean }> {
  try {
    const [res] = await conn.query<ResultSetHeader>(
      `INSERT INTO refunds (order_id, payment_id, kind, seq, out_refund_no, amount_fen, fee_fen, reason, requested_by, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        r.orderId,
        r.paymentId,
        r.kind,
        r.seq,
        r.outRefundNo,
        r.amountFen,
        r.feeFen,
        r.reason,
        r.requestedBy,
        r.now,
      ],
    );
    const refund: RefundRecord = {
      id: String(res.insertId),
      orderId: r.orderId,
      paymentId: r.paymentId,
      kind: r.kind,
      seq: r.seq,
      outRefundNo: r.outRefundNo,
      refundId: null,
      amountFen: r.amountFen,
      feeFen: r.feeFen,
      status: REFUND_STATUS.REQUESTED,
      reason: r.reason,
      requestedBy: r.requestedBy,
      createdAt: r.now,
      finishedAt: null,
    };
    return { refund, created: true };
  } catch (err) {
    if (sqlErrno(err) !== ER_DUP_ENTRY) throw err;
    return {
      refund: (await findRefund(conn, 'payment_id = ? AND kind = ? AND seq = ?', [
        r.paymentId,
        r.kind,
        r.seq,
      ]))!,
      created: false,
    };
  }
}

export async function setRefundStatus(
  conn: Db | Conn,
  id: string,
  status: number,
  o: { refundId?: string; finishedAt?: Date; from?: number[] } = {},
): Promise<boolean> {
  const [res] = await conn.query<ResultSetHeader>(
    `UPDATE ${byKey('refunds')} SET status = ?, refund_id = COALESCE(?, refund_id), finished_at = COALESCE(?, finished_at)
      WHERE id = ?${o.from ? ' AND status IN (?)' : ''}`,
    [status, o.refundId ?? null, o.finishedAt ?? null, id, ...(o.from ? [o.from] : [])],
  );
  return res.affectedRows === 1;
}

/** The gate's view: is the ticket's own item in an open or finished order refund? */
export async function ticketRefundBlocks(db: Db | Conn, ticketId: string): Promise<boolean> {
  const [rows] = await db.query<Rows<object>>(
    `SELECT 1 FROM tickets t JOIN refund_items ri ON ri.order_item_id = t.order_item_id
       JOIN refunds r ON r.id = ri.refund_id
      WHERE t.id = ? AND r.kind = 'order' AND r.status IN (?) LIMIT 1`,
    [ticketId, REFUND_BLOCKS_ADMISSION],
  );
  return rows.length > 0;
}

/** Ticket numbers of a session whose item is in an open or finished order refund. */
export async function refundBlockedTickets(db: Db | Conn, sessionId: string): Promise<Set<string>> {
  const [rows] = await db.query<Rows<{ ticket_no: string }>>(
    `SELECT t.ticket_no FROM tickets t JOIN refund_items ri ON ri.order_item_id = t.order_item_id
       JOIN refunds r ON r.id = ri.refund_id
      WHERE t.session_id = ? AND r.kind = 'order' AND r.status IN (?)`,
    [sessionId, REFUND_BLOCKS_ADMISSION],
  );
  return new Set(rows.map((r) => String(r.ticket_no)));
}

/**
 * A page of refunds in one non-final state, ids after `afterId`: the refund-check job walks each
 * state's refunds round robin, so however many sit in one state, none waits behind them.
 */
export async function refundsToCheck(
  db: Db,
  status: number,
  before: Date,
  afterId: string,
  limit: number,
): Promise<{ id: string; outRefundNo: string }[]> {
  const [rows] = await db.query<Rows<Pick<RefundRow, 'id' | 'out_refund_no'>>>(
    'SELECT id, out_refund_no FROM refunds WHERE status = ? AND created_at <= ? AND id > ? ORDER BY id LIMIT ?',
    [status, before, afterId, limit],
  );
  return rows.map((r) => ({ id: String(r.id), outRefundNo: r.out_refund_no }));
}

/** A send WeChat refused for now: count it and say when the sweeper may send it again. */
export async function noteRefundFailure(
  db: Db | Conn,
  id: string,
  error: string,
  nextAttemptAt: Date,
): Promise<number> {
  await db.query(
    `UPDATE ${byKey('refunds')} SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?
      WHERE id = ? AND status = ?`,
    [nextAttemptAt, error.slice(0, 200), id, REFUND_STATUS.REQUESTED],
  );
  const [rows] = await db.query<Rows<Pick<RefundRow, 'attempts'>>>(
    'SELECT attempts FROM refunds WHERE id = ?',
    [id],
  );
  return Number(rows[0]?.attempts ?? 0);
}

/** Refunds still REQUESTED (never accepted by WeChat) whose next send is due. */
export async function refundsToResend(
  db: Db,
  now: Date,
  createdBefore: Date,
  limit: number,
): Promise<string[]> {
  const [rows] = await db.query<Rows<Pick<RefundRow, 'id'>>>(
    `SELECT id FROM refunds WHERE status = ? AND created_at <= ?
        AND (next_attempt_at IS NULL OR next_attempt_at <= ?) ORDER BY id LIMIT ?`,
    [REFUND_STATUS.REQUESTED, createdBefore, now, limit],
  );
  return rows.map((r) => String(r.id));
}

/** Why a refund was handed to an operator. */
/**
 * abnormal: WeChat could not pay it out (the fan's card); stuck: refused send after send; closed:
 * WeChat closed a refund of money we must give back (a system refund: late, duplicate, currency,
 * exchange, fee), which no fan will ask for again.
 */
export type RefundCaseReason = 'abnormal' | 'stuck' | 'closed';

/** Hands a refund to an operator (once: a second call changes nothing). True if opened now. */
export async function openRefundCase(
  conn: Db | Conn,
  refund: Pick<RefundRecord, 'id' | 'orderId'>,
  reason: RefundCaseReason,
  now: Date,
): Promise<boolean> {
  const [res] = await conn.query<ResultSetHeader>(
    'INSERT IGNORE INTO refund_cases (refund_id, order_id, reason, opened_at) VALUES (?, ?, ?, ?)',
    [refund.id, refund.orderId, reason, now],
  );
  return res.affectedRows === 1;
}

/** Closes an open case (WeChat settled the refund, or an operator decided). */
export async function resolveRefundCase(
  conn: Db | Conn,
  refundId: string,
  r: { by: string; resolution: string; note?: string; now: Date },
): Promise<boolean> {
  const [res] = await conn.query<ResultSetHeader>(
    `UPDATE refund_cases SET state = 'resolved', resolved_at = ?, resolved_by = ?, resolution = ?, note = ?
      WHERE refund_id = ? AND state = 'open'`,
    [r.now, r.by, r.resolution, r.note ?? null, refundId],
  );
  return res.affectedRows === 1;
}

/** The show's refund tiers and the session's times, which a buyer's refund fee is reckoned from. */
export async function refundRulesOfSession(
  conn: Conn,
  sessionId: string,
): Promise<{ refundRules: string | null; startsAt: Date; fullRefundUntil: Date | null }> {
  const [rows] = await conn.query<
    Rows<{ refund_rules: string | null; starts_at: Date; full_refund_until: Date | null }>
  >(
    `SELECT s.refund_rules, ss.starts_at, ss.full_refund_until
       FROM show_sessions ss JOIN shows s ON s.id = ss.show_id WHERE ss.id = ?`,
    [sessionId],
  );
  return {
    refundRules: rows[0]?.refund_rules ?? null,
    startsAt: rows[0]!.starts_at,
    fullRefundUntil: rows[0]!.full_refund_until,
  };
}

/** Whether the order's session was cancelled by its organiser. */
export async function orderSessionCancelled(conn: Conn, orderId: string): Promise<boolean> {
  const [rows] = await conn.query<Rows<{ status: number }>>(
    'SELECT ss.status FROM orders o JOIN show_sessions ss ON ss.id = o.session_id WHERE o.id = ?',
    [orderId],
  );
  return Number(rows[0]?.status) === SESSION_STATUS.CANCELLED;
}

/** What the refunds asked by `by` give back for the order (a session cancel's, all its shares). */
export async function refundedFor(db: Db | Conn, orderId: string, by: string): Promise<number> {
  const [[r]] = await db.query<Rows<{ fen: number | string }>>(
    'SELECT COALESCE(SUM(amount_fen + fee_fen), 0) AS fen FROM refunds WHERE order_id = ? AND requested_by = ? AND status <> ?',
    [orderId, by, REFUND_STATUS.CLOSED],
  );
  return Number(r!.fen);
}
