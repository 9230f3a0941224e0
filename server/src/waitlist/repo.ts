import type { ResultSetHeader } from 'mysql2/promise';
import { unlessDuplicate, type Conn, type Db } from '../db/pool';
import { WAITLIST_STATUS } from '../lifecycle/statuses';
import type { Rows } from '../db/rows';

const W = WAITLIST_STATUS;

export interface EntryRow {
  id: string;
  session_id: string;
  tier_id: string;
  user_id: string;
  quantity: number;
  status: number;
  order_id: string | null;
  created_at: Date;
}

const ENTRY_COLUMNS = 'id, session_id, tier_id, user_id, quantity, status, order_id, created_at';

/** A new entry in line; false when the fan already has a live one for this tier (unique key). */
export async function insertEntry(
  conn: Conn,
  e: { sessionId: string; tierId: string; userId: string; quantity: number; now: Date },
): Promise<string | undefined> {
  return unlessDuplicate(undefined, async () => {
    const [res] = await conn.query<ResultSetHeader>(
      `INSERT INTO waitlist_entries (session_id, tier_id, user_id, quantity, status, live, created_at)
       VALUES (?, ?, ?, ?, ?, 1, ?)`,
      [e.sessionId, e.tierId, e.userId, e.quantity, W.WAITING, e.now],
    );
    return String(res.insertId);
  });
}

/** The fan's live entry (waiting or offered) in a tier's line, if any. */
export async function hasLiveEntry(
  conn: Conn,
  userId: string,
  sessionId: string,
  tierId: string,
): Promise<boolean> {
  const [found] = await conn.query<Rows<Pick<EntryRow, 'id'>>>(
    'SELECT id FROM waitlist_entries WHERE session_id = ? AND tier_id = ? AND user_id = ? AND live = 1',
    [sessionId, tierId, userId],
  );
  return found.length > 0;
}

/** Serialises one fan's joins (the limit counts every entry of theirs): locks their user row. */
export async function lockUser(conn: Conn, userId: string): Promise<void> {
  await conn.query('SELECT id FROM users WHERE id = ? FOR UPDATE', [userId]);
}

/** Units this fan waits for in a session (WAITING entries; an offer's units are its order's). */
export async function waitingUnitsOf(db: Db | Conn, userId: string, sessionId: string): Promise<number> {
  const [[r]] = await db.query<Rows<{ n: number | string }>>(
    'SELECT COALESCE(SUM(quantity), 0) AS n FROM waitlist_entries WHERE user_id = ? AND session_id = ? AND status = ?',
    [userId, sessionId, W.WAITING],
  );
  return Number(r!.n);
}

/** The same across the sessions of a show (the show's per-person limit). */
export async function waitingUnitsInShow(db: Db | Conn, userId: string, sessionId: string): Promise<number> {
  const [[r]] = await db.query<Rows<{ n: number | string }>>(
    `SELECT COALESCE(SUM(w.quantity), 0) AS n FROM waitlist_entries w
       JOIN show_sessions s ON s.id = w.session_id
       JOIN show_sessions me ON me.show_id = s.show_id AND me.id = ?
      WHERE w.user_id = ? AND w.status = ?`,
    [sessionId, userId, W.WAITING],
  );
  return Number(r!.n);
}

export async function findEntry(db: Db | Conn, id: string): Promise<EntryRow | undefined> {
  const [[r]] = await db.query<Rows<EntryRow>>(`SELECT ${ENTRY_COLUMNS} FROM waitlist_entries WHERE id = ?`, [
    id,
  ]);
  return r;
}

/** The line of one tier, in join order. */
export async function waitingLine(
  db: Db,
  sessionId: string,
  tierId: string,
  limit: number,
): Promise<EntryRow[]> {
  const [rows] = await db.query<Rows<EntryRow>>(
    `SELECT ${ENTRY_COLUMNS} FROM waitlist_entries
      WHERE session_id = ? AND tier_id = ? AND status = ? ORDER BY id LIMIT ?`,
    [sessionId, tierId, W.WAITING, limit],
  );
  return rows;
}

/** The tiers of a session that have fans waiting, and how many. */
export async function waitingPerTier(db: Db, sessionId: string): Promise<Map<string, number>> {
  const [rows] = await db.query<Rows<{ tier_id: string; n: number }>>(
    'SELECT tier_id, COUNT(*) AS n FROM waitlist_entries WHERE session_id = ? AND status = ? GROUP BY tier_id',
    [sessionId, W.WAITING],
  );
  return new Map(rows.map((r) => [String(r.tier_id), Number(r.n)]));
}

/** Offered entries of a session with their order's state (to settle them). */
export async function offeredEntries(
  db: Db,
  sessionId: string,
): Promise<(EntryRow & { order_status: number; cancel_reason: string | null })[]> {
  const [rows] = await db.query<Rows<EntryRow & { order_status: number; cancel_reason: string | null }>>(
    `SELECT w.id, w.session_id, w.tier_id, w.user_id, w.quantity, w.status, w.order_id, w.created_at,
            o.status AS order_status, o.cancel_reason
       FROM waitlist_entries w JOIN orders o ON o.id = w.order_id
      WHERE w.session_id = ? AND w.status = ?`,
    [sessionId, W.OFFERED],
  );
  return rows;
}

/** Sessions with live entries (waiting or offered): the sweep's work. */
export async function sessionsWithLiveEntries(db: Db, limit: number): Promise<string[]> {
  const [rows] = await db.query<Rows<Pick<EntryRow, 'session_id'>>>(
    'SELECT DISTINCT session_id FROM waitlist_entries WHERE status IN (?) LIMIT ?',
    [[W.WAITING, W.OFFERED], limit],
  );
  return rows.map((r) => String(r.session_id));
}

/** Live entries that joined the same tier's line earlier. */
export async function aheadOf(db: Db, e: EntryRow): Promise<number> {
  const [[r]] = await db.query<Rows<{ n: number }>>(
    'SELECT COUNT(*) AS n FROM waitlist_entries WHERE session_id = ? AND tier_id = ? AND status = ? AND id < ?',
    [e.session_id, e.tier_id, W.WAITING, e.id],
  );
  return Number(r!.n);
}

export interface EntryViewRow extends EntryRow {
  end_reason: string | null;
  tier_name: string;
  price_fen: number;
  order_no: string | null;
  expire_at: Date | null;
  title: string;
  starts_at: Date;
}

/** A fan's entries, newest first, with what the 我的 page shows. */
export async function entriesOfUser(
  db: Db,
  userId: string,
  where: { id?: string } = {},
  limit = 50,
): Promise<EntryViewRow[]> {
  const [rows] = await db.query<Rows<EntryViewRow>>(
    `SELECT w.id, w.session_id, w.tier_id, w.user_id, w.quantity, w.status, w.order_id, w.created_at,
            w.end_reason, t.name AS tier_name, t.price_fen, o.order_no, o.expire_at, sh.title, s.starts_at
       FROM waitlist_entries w
       JOIN price_tiers t ON t.id = w.tier_id
       JOIN show_sessions s ON s.id = w.session_id
       JOIN shows sh ON sh.id = s.show_id
       LEFT JOIN orders o ON o.id = w.order_id
      WHERE w.user_id = ? ${where.id ? 'AND w.id = ?' : ''}
      ORDER BY w.id DESC LIMIT ?`,
    where.id ? [userId, where.id, limit] : [userId, limit],
  );
  return rows;
}

/** Per tier and status: entries and units (the admin's view of a session's lines). */
export async function countsOf(
  db: Db,
  sessionId: string,
): Promise<{ tier_id: string; tier_name: string; status: number; n: number; units: number }[]> {
  const [rows] = await db.query<
    Rows<{ tier_id: string; tier_name: string; status: number | null; n: number; units: number | string }>
  >(
    `SELECT t.id AS tier_id, t.name AS tier_name, w.status, COUNT(w.id) AS n, COALESCE(SUM(w.quantity), 0) AS units
       FROM price_tiers t LEFT JOIN waitlist_entries w ON w.tier_id = t.id
      WHERE t.session_id = ? GROUP BY t.id, t.name, w.status ORDER BY t.id`,
    [sessionId],
  );
  return rows.map((r) => ({
    tier_id: String(r.tier_id),
    tier_name: r.tier_name,
    status: Number(r.status ?? 0),
    n: Number(r.n),
    units: Number(r.units),
  }));
}
