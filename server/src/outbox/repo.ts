import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { Conn } from '../db/pool';
import { byKey } from '../db/sql';

/**
 * What a notice tells the fan. Each maps to a notice kind, one WeChat template each
 * (notices/kinds.ts): refunded, late_refund, returned and refund_delayed are all 'refund'.
 * returned: money that could not pay the order (another currency) goes back.
 */
export type NoticeTemplate =
  | 'paid'
  | 'ticketed'
  | 'refunded'
  | 'late_refund'
  | 'refund_delayed'
  | 'returned'
  | 'waiting_list_offer'
  | 'session_changed'
  | 'reminder'
  | 'sale_open';

/** Every message the server emits, and what it carries. */
export interface Messages {
  'order.paid': { orderId: string };
  'payment.late': { orderId: string; paymentId: string };
  'refund.requested': { refundId: string };
  /**
   * units: a per-ticket refund's seat ids or slot numbers; absent: the whole order. ids: an
   * exchange's real-name ID hashes, moved to order `idsTo` of the session or given up ('').
   */
  'inventory.release': {
    sessionId: string;
    orderId: string;
    units?: string[];
    ids?: string[];
    idsTo?: string;
  };
  /** A notice about an order, or (sale_open) about a show whose session went on sale. */
  'notice.send':
    | { userId: string; template: Exclude<NoticeTemplate, 'sale_open'>; orderId: string }
    | { userId: string; template: 'sale_open'; showId: string; sessionId: string };
}

export type Topic = keyof Messages;

/** An outbox row's status (DEAD is kept for rows of older versions; RabbitMQ dead-letters now). */
export const OUTBOX_STATUS = { PENDING: 0, SENT: 1, DEAD: 2 } as const;

/** The columns of an outbox row the relay reads. */
interface OutboxRow extends RowDataPacket {
  id: string;
  topic: Topic;
  aggregate_id: string;
  payload: string;
}

/** A message waiting to be published. */
export interface OutboxMessage {
  id: string;
  topic: Topic;
  aggregateId: string;
  /** The message as JSON text. */
  payload: string;
}

/** Writes a message in the caller's transaction: it leaves only if the state change commits. */
export function enqueue<T extends Topic>(
  conn: Conn,
  topic: T,
  aggregateId: string,
  payload: Messages[T],
): Promise<void> {
  return enqueueAll(conn, [{ topic, aggregateId, payload } as OutboxEntry]);
}

/** One message of enqueueAll. */
export type OutboxEntry = { [T in Topic]: { topic: T; aggregateId: string; payload: Messages[T] } }[Topic];

/**
 * Writes several messages in the caller's transaction in one statement (one round trip, where
 * enqueue per message costs one each). Rows take ascending ids in the order given, so the relay
 * publishes them in that order, as it would consecutive enqueues.
 */
export async function enqueueAll(conn: Conn, entries: readonly OutboxEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((e) => [e.topic, e.aggregateId, JSON.stringify(e.payload)]);
  await conn.query('INSERT INTO outbox (topic, aggregate_id, payload) VALUES ?', [rows]);
}

// Outbox timing uses the database's clock (NOW(3)): it is plumbing, not business time, and one
// clock for every instance keeps their backoffs consistent.

/** Due messages, locked for this relay; SKIP LOCKED lets several instances relay side by side. */
export async function claimDue(conn: Conn, limit: number): Promise<OutboxMessage[]> {
  const [rows] = await conn.query<OutboxRow[]>(
    `SELECT id, topic, aggregate_id, payload FROM outbox
      WHERE status = ? AND next_attempt_at <= NOW(3) ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED`,
    [OUTBOX_STATUS.PENDING, limit],
  );
  return rows.map((r) => ({ id: r.id, topic: r.topic, aggregateId: r.aggregate_id, payload: r.payload }));
}

export async function markSent(conn: Conn, ids: string[]): Promise<void> {
  if (ids.length)
    await conn.query(
      `UPDATE ${byKey('outbox')} SET status = ?, sent_at = NOW(3) WHERE id IN (?) AND status = ?`,
      [OUTBOX_STATUS.SENT, ids, OUTBOX_STATUS.PENDING],
    );
}

const RETRY_BASE_MS = 500;
const RETRY_MAX_MS = 60_000;

/**
 * Messages RabbitMQ did not take wait 500 ms × 2^attempts (at most a minute) for the next try.
 * The backoff is computed in SQL so that one statement serves every row that failed with the
 * same error (when RabbitMQ is down, a whole batch).
 */
export async function markFailed(conn: Conn, failed: { id: string; error: string }[]): Promise<void> {
  const byError = new Map<string, string[]>();
  for (const f of failed) {
    const error = f.error.slice(0, 500);
    byError.set(error, [...(byError.get(error) ?? []), f.id]);
  }
  for (const [error, ids] of byError)
    // next_attempt_at before attempts: assignments run left to right, it reads the old count.
    await conn.query<ResultSetHeader>(
      `UPDATE outbox SET next_attempt_at = NOW(3) + INTERVAL LEAST(?, ? << LEAST(attempts + 1, 10)) * 1000 MICROSECOND,
         attempts = attempts + 1, last_error = ? WHERE id IN (?)`,
      [RETRY_MAX_MS, RETRY_BASE_MS, error, ids],
    );
}
