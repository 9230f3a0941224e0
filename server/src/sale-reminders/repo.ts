import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { SaleReminder } from '@showtix/shared-types';
import type { Conn, Db } from '../db/pool';
import { SESSION_STATUS } from '../catalog/types';

/** A show with counts of its sessions selling and in presale (shows joined to show_sessions). */
interface SaleStateRow extends RowDataPacket {
  id: string;
  selling: string | null;
  presale: string | null;
}

/** A sale_reminders row with its show's title and next sale start. */
interface ReminderRow extends RowDataPacket {
  show_id: string;
  title: string;
  created_at: Date;
  notified_at: Date | null;
  next_sale: Date | null;
}

/** A sale_reminders row due, with the first selling session of its show. */
interface DueReminderRow extends RowDataPacket {
  user_id: string;
  show_id: string;
  session_id: string;
}
type Q = Db | Conn;

const SELLING = [SESSION_STATUS.ON_SALE, SESSION_STATUS.SOLD_OUT];

/** Whether a show exists, has a session selling (on sale or sold out), and one still in presale. */
export async function saleStateOf(db: Q, showId: string) {
  const [rows] = await db.query<SaleStateRow[]>(
    `SELECT sh.id, SUM(ss.status IN (?)) selling, SUM(ss.status = ?) presale
       FROM shows sh LEFT JOIN show_sessions ss ON ss.show_id = sh.id WHERE sh.id = ? GROUP BY sh.id`,
    [SELLING, SESSION_STATUS.PRESALE, showId],
  );
  const r = rows[0];
  return r ? { selling: Number(r.selling ?? 0) > 0, presale: Number(r.presale ?? 0) > 0 } : null;
}

/** The fan's reminder of a show; asking again keeps the first (INSERT IGNORE). */
export async function insertReminder(db: Q, userId: string, showId: string, now: Date): Promise<void> {
  await db.query('INSERT IGNORE INTO sale_reminders (user_id, show_id, created_at) VALUES (?, ?, ?)', [
    userId,
    showId,
    now,
  ]);
}

/** Cancels the fan's reminder; false when there was none. */
export async function deleteReminder(db: Q, userId: string, showId: string): Promise<boolean> {
  const [r] = await db.query<ResultSetHeader>(
    'DELETE FROM sale_reminders WHERE user_id = ? AND show_id = ?',
    [userId, showId],
  );
  return r.affectedRows === 1;
}

/** The fan's reminders, newest first, with each show's earliest sale still to come. */
export async function remindersOf(db: Q, userId: string, showId?: string): Promise<SaleReminder[]> {
  const [rows] = await db.query<ReminderRow[]>(
    `SELECT r.show_id, sh.title, r.created_at, r.notified_at,
        (SELECT MIN(ss.sale_starts_at) FROM show_sessions ss WHERE ss.show_id = r.show_id AND ss.status = ?) next_sale
       FROM sale_reminders r JOIN shows sh ON sh.id = r.show_id
      WHERE r.user_id = ?${showId ? ' AND r.show_id = ?' : ''} ORDER BY r.created_at DESC LIMIT 200`,
    [SESSION_STATUS.PRESALE, userId, ...(showId ? [showId] : [])],
  );
  return rows.map((r) => ({
    showId: String(r.show_id),
    title: String(r.title),
    saleStartsAt: r.next_sale ? r.next_sale.toISOString() : null,
    state: r.notified_at ? 'notified' : 'waiting',
    createdAt: r.created_at.toISOString(),
    notifiedAt: r.notified_at ? r.notified_at.toISOString() : null,
  }));
}

/**
 * Reminders not yet sent whose show has a session selling now, with that session (the first).
 * From the selling sessions to the reminders (idx_sale_reminders_due), so the thousands of
 * reminders of shows still in presale are not read every run.
 */
export async function dueSaleReminders(db: Db, limit: number) {
  const [rows] = await db.query<DueReminderRow[]>(
    `SELECT r.user_id, r.show_id, s.session_id
       FROM (SELECT show_id, MIN(id) session_id FROM show_sessions WHERE status IN (?) GROUP BY show_id) s
       JOIN sale_reminders r ON r.show_id = s.show_id AND r.notified_at IS NULL
      ORDER BY r.show_id, r.user_id LIMIT ?`,
    [SELLING, limit],
  );
  return rows.map((r) => ({
    userId: String(r.user_id),
    showId: String(r.show_id),
    sessionId: String(r.session_id),
  }));
}

/**
 * Marks the reminder as sent; false when it was already (another run, another instance) or the
 * fan cancelled it meanwhile. The caller writes the notice's message in the same transaction.
 */
export async function claimSaleReminder(
  conn: Conn,
  r: { userId: string; showId: string; sessionId: string },
  now: Date,
): Promise<boolean> {
  const [res] = await conn.query<ResultSetHeader>(
    `UPDATE sale_reminders SET notified_at = ?, notified_session_id = ?
      WHERE user_id = ? AND show_id = ? AND notified_at IS NULL`,
    [now, r.sessionId, r.userId, r.showId],
  );
  return res.affectedRows === 1;
}
