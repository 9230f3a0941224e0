import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { Db } from '../db/pool';
import { SESSION_STATUS } from '../catalog/types';

/**
 * Sessions a hold can still be placed in, or soon (presale, on sale, sold out: seats come back):
 * where a user's hold cooldown is written (risk/service.ts).
 */
export async function liveSessionIds(db: Db): Promise<string[]> {
  const [rows] = await db.query<(RowDataPacket & { id: string })[]>(
    'SELECT id FROM show_sessions WHERE status IN (?)',
    [[SESSION_STATUS.PRESALE, SESSION_STATUS.ON_SALE, SESSION_STATUS.SOLD_OUT]],
  );
  return rows.map((r) => String(r.id));
}

/** What a blocklist entry names. */
export type BlockKind = 'user' | 'device' | 'ip' | 'id';

/** One blocklist entry (blocklist table: the columns the purchase path compares). */
export interface BlocklistRow {
  kind: BlockKind;
  value: string;
}

/** The whole blocklist: small, and copied into each instance (risk/service.ts). */
export async function blocklistEntries(db: Db): Promise<BlocklistRow[]> {
  const [rows] = await db.query<(RowDataPacket & BlocklistRow)[]>('SELECT kind, value FROM blocklist');
  return rows.map((r) => ({ kind: r.kind, value: String(r.value) }));
}

/** One more expired hold in the user's streak; the new streak (0 if there is no such user). */
export async function bumpExpiredStreak(db: Db, userId: string): Promise<number> {
  // LAST_INSERT_ID(expr) hands the new value back with the update: one round trip, no re-read.
  const [res] = await db.query<ResultSetHeader>(
    'UPDATE users SET expired_streak = LAST_INSERT_ID(expired_streak + 1) WHERE id = ?',
    [userId],
  );
  return res.affectedRows === 1 ? Number(res.insertId) : 0;
}

/**
 * Several expired holds at once (the expiry of a batch): each user's streak grows by as many as
 * it has here, one statement per distinct count (usually one); then the users whose streak has
 * reached `atLeast`, with it.
 */
export async function bumpExpiredStreaks(
  db: Db,
  userIds: readonly string[],
  atLeast: number,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const u of userIds) counts.set(u, (counts.get(u) ?? 0) + 1);
  if (counts.size === 0) return new Map();
  const byCount = new Map<number, string[]>();
  for (const [u, n] of counts) byCount.set(n, [...(byCount.get(n) ?? []), u]);
  for (const [n, users] of [...byCount].sort((a, b) => a[0] - b[0])) {
    await db.query('UPDATE users SET expired_streak = expired_streak + ? WHERE id IN (?)', [n, users]);
  }
  const [rows] = await db.query<(RowDataPacket & { id: string; expired_streak: number })[]>(
    'SELECT id, expired_streak FROM users WHERE id IN (?) AND expired_streak >= ?',
    [[...counts.keys()], atLeast],
  );
  return new Map(rows.map((r) => [String(r.id), Number(r.expired_streak)]));
}

/**
 * Payments end their users' streaks of expired holds: one statement for the users of a batch of
 * payments (it was one per paid order, a third of the pay path's statements).
 */
export async function resetExpiredStreaks(db: Db, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.query('UPDATE users SET expired_streak = 0 WHERE id IN (?) AND expired_streak <> 0', [userIds]);
}

/** Records (or raises) a flag: this device or address carries `accounts` accounts. */
export async function upsertRiskFlag(
  db: Db,
  f: { kind: 'device' | 'ip'; subject: string; accounts: number; now: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO risk_flags (kind, subject, accounts, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)
       ON DUPLICATE KEY UPDATE accounts = VALUES(accounts), last_seen = VALUES(last_seen)`,
    [f.kind, f.subject, f.accounts, f.now, f.now],
  );
}
