import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { Conn } from '../db/pool';

/** Every message the server emits, and what it carries. */
export interface Messages {
  'order.paid': { orderId: string };
  'payment.late': { orderId: string; paymentId: string };
  'refund.requested': { refundId: string };
  'inventory.release': { sessionId: string; orderId: string };
  'notice.send': { userId: string; template: 'ticketed' | 'refunded' | 'late_refund'; orderId: string };
}

export type Topic = keyof Messages;

export interface OutboxRow {
  id: string;
  topic: Topic;
  aggregate_id: string;
  payload: string;
  attempts: number;
}

/** Writes a message in the caller's transaction: it leaves only if the state change commits. */
export async function enqueue<T extends Topic>(
  conn: Conn,
  topic: T,
  aggregateId: string,
  payload: Messages[T],
): Promise<void> {
  await conn.query('INSERT INTO outbox (topic, aggregate_id, payload) VALUES (?, ?, ?)', [
    topic,
    aggregateId,
    JSON.stringify(payload),
  ]);
}

// Outbox timing uses the database's clock (NOW(3)): it is plumbing, not business time, and one
// clock for every instance keeps their backoffs consistent.

/** Due messages, locked for this relay; SKIP LOCKED lets several instances relay side by side. */
export async function claimDue(conn: Conn, limit: number): Promise<OutboxRow[]> {
  const [rows] = await conn.query<RowDataPacket[]>(
    `SELECT id, topic, aggregate_id, payload, attempts FROM outbox
      WHERE status = 0 AND next_attempt_at <= NOW(3) ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  return rows as OutboxRow[];
}

export async function markSent(conn: Conn, ids: string[]): Promise<void> {
  if (ids.length) await conn.query('UPDATE outbox SET status = 1, sent_at = NOW(3) WHERE id IN (?)', [ids]);
}

export async function markFailed(
  conn: Conn,
  id: string,
  attempts: number,
  delayMs: number,
  error: string,
): Promise<void> {
  await conn.query<ResultSetHeader>(
    'UPDATE outbox SET attempts = ?, next_attempt_at = NOW(3) + INTERVAL ? MICROSECOND, last_error = ? WHERE id = ?',
    [attempts, delayMs * 1000, error.slice(0, 500), id],
  );
}
