import type { ParkedMessage } from '@showtix/shared-types';
import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { Conn, Db } from '../db/pool';
import type { DeadLetter } from '../outbox/broker';

/** Parks a dead letter (again, if an operator's requeue failed once more). */
export async function parkDeadLetter(db: Db | Conn, m: DeadLetter): Promise<void> {
  await db.query(
    `INSERT INTO dead_letters (queue, message_id, payload, error, redrives) VALUES (?, ?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE payload = VALUES(payload), error = VALUES(error), redrives = VALUES(redrives),
         state = 'parked', parked_at = CURRENT_TIMESTAMP(3), resolved_at = NULL, resolved_by = NULL`,
    [m.queue, m.messageId.slice(0, 64), m.payload, m.error?.slice(0, 500) ?? null, m.redrives],
  );
}

/** The columns of a parked dead_letters row the ops page reads. */
interface ParkedRow extends RowDataPacket {
  id: string;
  queue: string;
  message_id: string;
  payload: string;
  error: string | null;
  redrives: number;
  parked_at: Date;
}

/** A message parked after its redrives ran out, for an operator to decide on (the ops page's, dated). */
export type ParkedDeadLetter = Omit<ParkedMessage, 'parkedAt'> & { parkedAt: Date };

export async function parkedDeadLetters(db: Db, limit: number): Promise<ParkedDeadLetter[]> {
  const [rows] = await db.query<ParkedRow[]>(
    `SELECT id, queue, message_id, payload, error, redrives, parked_at FROM dead_letters
      WHERE state = 'parked' ORDER BY id LIMIT ?`,
    [limit],
  );
  return rows.map((r) => ({
    id: String(r.id),
    queue: r.queue,
    messageId: r.message_id,
    payload: r.payload,
    error: r.error,
    redrives: r.redrives,
    parkedAt: r.parked_at,
  }));
}

/** An operator's decision on a parked message: conditional, so two operators decide once. */
export async function resolveDeadLetter(
  db: Db | Conn,
  id: string,
  state: 'requeued' | 'discarded',
  by: string,
  now: Date,
): Promise<boolean> {
  const [res] = await db.query<ResultSetHeader>(
    `UPDATE dead_letters SET state = ?, resolved_at = ?, resolved_by = ? WHERE id = ? AND state = 'parked'`,
    [state, now, by, id],
  );
  return res.affectedRows === 1;
}

/** Deletes up to `limit` admission-use rows that expired before `before` (oldest first). */
export async function deleteExpiredAdmissionUses(db: Db, before: Date, limit: number): Promise<number> {
  const [res] = await db.query<ResultSetHeader>(
    'DELETE FROM admission_uses WHERE expires_at < ? ORDER BY expires_at LIMIT ?',
    [before, limit],
  );
  return res.affectedRows;
}
