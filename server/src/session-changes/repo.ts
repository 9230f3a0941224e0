import type { ResultSetHeader } from 'mysql2/promise';
import { SESSION_STATUS } from '../catalog/types';
import type { Conn, Db } from '../db/pool';
import { ORDER_STATUS, REFUND_STATUS } from '../lifecycle/statuses';
import { TICKET_LIFECYCLE } from '../lifecycle/transitions';
import { camelRow, type Packet } from '../db/rows';
import type { ChangeKind, ChangeRow } from './rows';

export type { ChangeKind } from './rows';

/** COUNT and SUM come back as strings (BIGINT, DECIMAL): read through Number(). */
type Agg = string | number;

/** A session change as services see it (session-changes/rows.ts: the row it is mapped from). */
export interface ChangeRecord {
  id: string;
  sessionId: string;
  kind: ChangeKind;
  state: 'running' | 'done';
  reason: string;
  oldStartsAt: Date;
  newStartsAt: Date | null;
  refundUntil: Date | null;
  createdBy: string;
  createdAt: Date;
  finishedAt: Date | null;
}

/** A change-order row's state (migration 0026). */
export const CHANGE_ORDER = {
  TODO: 'todo',
  REQUESTED: 'requested',
  FAILED: 'failed',
  NOTIFIED: 'notified',
} as const;

const LIVE_PAID = [ORDER_STATUS.PAID, ORDER_STATUS.TICKETED];

export interface SessionLock {
  id: string;
  status: number;
  starts_at: Date;
  sale_starts_at: Date;
}

export async function lockSession(conn: Conn, id: string): Promise<SessionLock | undefined> {
  const [rows] = await conn.query<Packet<SessionLock>[]>(
    'SELECT id, status, starts_at, sale_starts_at FROM show_sessions WHERE id = ? FOR UPDATE',
    [id],
  );
  return rows[0];
}

export async function insertChange(
  conn: Conn,
  c: Omit<ChangeRecord, 'id' | 'state' | 'finishedAt'>,
): Promise<string> {
  const [res] = await conn.query<ResultSetHeader>(
    `INSERT INTO session_changes
       (session_id, kind, reason, old_starts_at, new_starts_at, refund_until, created_by, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [c.sessionId, c.kind, c.reason, c.oldStartsAt, c.newStartsAt, c.refundUntil, c.createdBy, c.createdAt],
  );
  return String(res.insertId);
}

/** Moves a postponed session's date and opens its full-refund window. */
export async function setPostponed(
  conn: Conn,
  id: string,
  p: { startsAt: Date; from: Date; refundUntil: Date },
): Promise<void> {
  // The first date is kept across several postponements: fans compare with what they bought.
  await conn.query(
    `UPDATE show_sessions SET starts_at = ?, postponed_from = COALESCE(postponed_from, ?),
       full_refund_until = ? WHERE id = ?`,
    [p.startsAt, p.from, p.refundUntil, id],
  );
}

/**
 * Every valid ticket of the session is held (REFUNDING) at once: the online gate and the offline
 * bundles both refuse held tickets. Repeated by the run for tickets issued afterwards.
 */
export async function holdSessionTickets(conn: Db | Conn, sessionId: string): Promise<number> {
  const t = TICKET_LIFECYCLE.holdForRefund;
  const [res] = await conn.query<ResultSetHeader>(
    'UPDATE tickets SET status = ? WHERE session_id = ? AND status IN (?)',
    [t.to, sessionId, t.from],
  );
  return res.affectedRows;
}

/** Whether the gate must refuse every ticket of this session (read under the ticket's lock). */
export async function sessionCancelled(conn: Db | Conn, sessionId: string): Promise<boolean> {
  const [rows] = await conn.query<Packet<{ status: number }>[]>(
    'SELECT status FROM show_sessions WHERE id = ?',
    [sessionId],
  );
  return rows[0]?.status === SESSION_STATUS.CANCELLED;
}

/** The row under camelCase names, the same values. */
const toChange: (r: ChangeRow) => ChangeRecord = camelRow;

export async function changeById(db: Db | Conn, id: string, lock = false): Promise<ChangeRecord | undefined> {
  const [rows] = await db.query<Packet<ChangeRow>[]>(
    `SELECT * FROM session_changes WHERE id = ?${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] && toChange(rows[0]);
}

export async function changesOf(db: Db, sessionId: string): Promise<ChangeRecord[]> {
  const [rows] = await db.query<Packet<ChangeRow>[]>(
    'SELECT * FROM session_changes WHERE session_id = ? ORDER BY id DESC',
    [sessionId],
  );
  return rows.map(toChange);
}

/**
 * Changes with work left: running ones, and finished cancellations that a late payment gave a
 * paid order again (it must be refunded as well).
 */
export async function changesToRun(db: Db): Promise<ChangeRecord[]> {
  const [rows] = await db.query<Packet<ChangeRow>[]>(
    `SELECT sc.* FROM session_changes sc
      WHERE sc.state = 'running'
         OR (sc.kind = 'cancel' AND EXISTS (
              SELECT 1 FROM orders o WHERE o.session_id = sc.session_id AND o.status IN (?)
                 AND o.channel <> 'comp' AND NOT EXISTS (SELECT 1 FROM session_change_orders x
                                  WHERE x.change_id = sc.id AND x.order_id = o.id)))
      ORDER BY sc.id`,
    [LIVE_PAID],
  );
  return rows.map(toChange);
}

export interface ReachOrder {
  id: string;
  user_id: string;
  amount_fen: number;
}

/**
 * Paid or ticketed orders of the session this change has not reached yet. A postponement reaches
 * complimentary orders too once claimed (their holder is told the new date; nothing to refund);
 * a cancellation does not: it voids them and tells their holder itself (run.ts voidComps).
 */
export async function unreachedOrders(db: Db, change: ChangeRecord, limit: number): Promise<ReachOrder[]> {
  const [rows] = await db.query<Packet<ReachOrder>[]>(
    `SELECT o.id, o.user_id, o.amount_fen FROM orders o
      WHERE o.session_id = ? AND o.status IN (?)
        AND (o.channel <> 'comp' OR (? = 'postpone'
             AND EXISTS (SELECT 1 FROM comp_orders co WHERE co.order_id = o.id AND co.claimed_by IS NOT NULL)))
        AND NOT EXISTS (SELECT 1 FROM session_change_orders x WHERE x.change_id = ? AND x.order_id = o.id)
      ORDER BY o.id LIMIT ?`,
    [change.sessionId, LIVE_PAID, change.kind, change.id, limit],
  );
  return rows.map((r) => ({ id: String(r.id), user_id: String(r.user_id), amount_fen: r.amount_fen }));
}

/** The row that says this change reached this order; false when it already had. */
export async function addChangeOrder(
  conn: Conn,
  changeId: string,
  o: ReachOrder,
  state: string,
): Promise<boolean> {
  const [res] = await conn.query<ResultSetHeader>(
    'INSERT IGNORE INTO session_change_orders (change_id, order_id, amount_fen, state) VALUES (?, ?, ?, ?)',
    [changeId, o.id, o.amount_fen, state],
  );
  return res.affectedRows === 1;
}

export async function pendingOrderIds(db: Db, sessionId: string, limit: number): Promise<string[]> {
  const [rows] = await db.query<Packet<{ id: string }>[]>(
    'SELECT id FROM orders WHERE session_id = ? AND status = ? ORDER BY id LIMIT ?',
    [sessionId, ORDER_STATUS.PENDING, limit],
  );
  return rows.map((r) => String(r.id));
}

export async function todoOrderIds(db: Db, changeId: string, limit: number): Promise<string[]> {
  const [rows] = await db.query<Packet<{ order_id: string }>[]>(
    'SELECT order_id FROM session_change_orders WHERE change_id = ? AND state = ? ORDER BY order_id LIMIT ?',
    [changeId, CHANGE_ORDER.TODO, limit],
  );
  return rows.map((r) => String(r.order_id));
}

export async function markChangeOrder(
  db: Db,
  changeId: string,
  orderId: string,
  set: { state: string; refundId?: string; error?: string; amountFen?: number },
): Promise<void> {
  await db.query(
    `UPDATE session_change_orders SET state = ?, refund_id = COALESCE(?, refund_id), error = ?,
       amount_fen = COALESCE(?, amount_fen) WHERE change_id = ? AND order_id = ?`,
    [
      set.state,
      set.refundId ?? null,
      set.error?.slice(0, 200) ?? null,
      set.amountFen ?? null,
      changeId,
      orderId,
    ],
  );
}

export async function setChangeState(
  db: Db,
  id: string,
  state: 'running' | 'done',
  now: Date,
): Promise<void> {
  await db.query('UPDATE session_changes SET state = ?, finished_at = ? WHERE id = ?', [
    state,
    state === 'done' ? now : null,
    id,
  ]);
}

export interface ChangeCounts {
  total: number;
  waiting: number;
  inProgress: number;
  refunded: number;
  failed: number;
  fenToRefund: number;
  fenRefunded: number;
}

/**
 * One change's orders counted from the refunds rows themselves (the record of what WeChat
 * confirmed): refunded = SUCCESS, failed = refused by our rules, ABNORMAL or CLOSED.
 */
export async function changeCounts(db: Db, changeId: string): Promise<ChangeCounts> {
  type Counts =
    'total' | 'waiting' | 'in_progress' | 'refunded' | 'failed' | 'fen_to_refund' | 'fen_refunded';
  const [[r]] = await db.query<Packet<Record<Counts, Agg>>[]>(
    `SELECT COUNT(*) AS total,
            COALESCE(SUM(x.state = ?), 0) AS waiting,
            COALESCE(SUM(x.state = ? AND r.status IN (?)), 0) AS in_progress,
            COALESCE(SUM(r.status = ?), 0) AS refunded,
            COALESCE(SUM(x.state = ? OR r.status IN (?)), 0) AS failed,
            COALESCE(SUM(x.amount_fen), 0) AS fen_to_refund,
            COALESCE(SUM(CASE WHEN r.status = ? THEN r.amount_fen ELSE 0 END), 0)
              + COALESCE(SUM((SELECT SUM(o.amount_fen) FROM refunds o WHERE o.order_id = x.order_id
                   AND o.requested_by = CONCAT('system:cancel-', x.change_id) AND o.status = ?
                   AND o.id <> COALESCE(x.refund_id, 0))), 0) AS fen_refunded
       FROM session_change_orders x LEFT JOIN refunds r ON r.id = x.refund_id
      WHERE x.change_id = ?`,
    [
      CHANGE_ORDER.TODO,
      CHANGE_ORDER.REQUESTED,
      [REFUND_STATUS.REQUESTED, REFUND_STATUS.PROCESSING],
      REFUND_STATUS.SUCCESS,
      CHANGE_ORDER.FAILED,
      [REFUND_STATUS.ABNORMAL, REFUND_STATUS.CLOSED],
      REFUND_STATUS.SUCCESS,
      REFUND_STATUS.SUCCESS,
      changeId,
    ],
  );
  return {
    total: Number(r!.total),
    waiting: Number(r!.waiting),
    inProgress: Number(r!.in_progress),
    refunded: Number(r!.refunded),
    failed: Number(r!.failed),
    fenToRefund: Number(r!.fen_to_refund),
    fenRefunded: Number(r!.fen_refunded),
  };
}

export async function countPending(db: Db, sessionId: string): Promise<number> {
  const [[r]] = await db.query<Packet<{ n: Agg }>[]>(
    'SELECT COUNT(*) AS n FROM orders WHERE session_id = ? AND status = ?',
    [sessionId, ORDER_STATUS.PENDING],
  );
  return Number(r!.n);
}

/** Refunds of the change not settled well: refused sends being retried, abnormal, closed, failed. */
export async function changeProblems(
  db: Db,
  changeId: string,
  limit: number,
): Promise<{ orderNo: string; amountFen: number; state: string; error: string | null }[]> {
  const [rows] = await db.query<
    Packet<{
      order_no: string;
      amount_fen: number;
      state: string;
      error: string | null;
      refund_status: number | null;
      last_error: string | null;
    }>[]
  >(
    `SELECT o.order_no, x.amount_fen, x.state, x.error, r.status AS refund_status, r.last_error
       FROM session_change_orders x JOIN orders o ON o.id = x.order_id
       LEFT JOIN refunds r ON r.id = x.refund_id
      WHERE x.change_id = ? AND (x.state = ? OR r.status IN (?) OR (r.status = ? AND r.attempts > 0))
      ORDER BY x.order_id LIMIT ?`,
    [
      changeId,
      CHANGE_ORDER.FAILED,
      [REFUND_STATUS.ABNORMAL, REFUND_STATUS.CLOSED],
      REFUND_STATUS.REQUESTED,
      limit,
    ],
  );
  const names: Record<number, string> = { 0: 'retrying', 3: 'abnormal', 4: 'closed' };
  return rows.map((r) => ({
    orderNo: String(r.order_no),
    amountFen: r.amount_fen,
    state: r.refund_status == null ? 'failed' : (names[r.refund_status] ?? 'retrying'),
    error: r.error ?? r.last_error ?? null,
  }));
}

/** Comp orders (赠票) of the session still ticketed, none of whose tickets let someone in. */
export async function compsToVoid(db: Db, sessionId: string, limit: number): Promise<string[]> {
  const [rows] = await db.query<Packet<{ id: string }>[]>(
    `SELECT o.id FROM orders o WHERE o.session_id = ? AND o.channel = 'comp' AND o.status = ?
        AND NOT EXISTS (SELECT 1 FROM tickets t JOIN checkins c ON c.ticket_id = t.id WHERE t.order_id = o.id)
      ORDER BY o.id LIMIT ?`,
    [sessionId, ORDER_STATUS.TICKETED, limit],
  );
  return rows.map((r) => String(r.id));
}
