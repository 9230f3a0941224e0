import type { GateConflict } from '@showtix/shared-types';
import type { Conn, Db } from '../../db/pool';
import type { Rows } from '../../db/rows';

/** A staff_invites row: a code that makes its redeemer gate staff of some shows. */
export interface StaffInviteRow {
  code: string;
  /** JSON array of show ids. */
  show_ids: string;
  max_uses: number;
  uses: number;
  note: string;
  expires_at: Date;
  revoked_at: Date | null;
  created_by: string;
  created_at: Date;
}

/** A staff assignment with its user's nickname and its show's title (the admin's staff list). */
export interface StaffAssignmentView {
  user_id: string;
  nickname: string | null;
  show_id: string;
  title: string;
  created_at: Date;
}

/** A WeChat user found by the admin's staff search. */
export interface UserHit {
  id: string;
  nickname: string | null;
  openid: string;
  created_at: Date;
}

/**
 * Whether a WeChat user is gate staff for a show. The check-in endpoint (its own issue)
 * authorises a staff member's fan token with this.
 */
export async function isStaffFor(db: Db, userId: string, showId: string): Promise<boolean> {
  const [rows] = await db.query<Rows<object>>(
    'SELECT 1 FROM staff_assignments WHERE user_id = ? AND show_id = ?',
    [userId, showId],
  );
  return rows.length > 0;
}

/** The shows a WeChat user checks tickets for. */
export async function showsOfStaff(db: Db, userId: string): Promise<{ id: string; title: string }[]> {
  const [rows] = await db.query<Rows<{ id: string; title: string }>>(
    'SELECT s.id, s.title FROM staff_assignments a JOIN shows s ON s.id = a.show_id WHERE a.user_id = ? ORDER BY s.id',
    [userId],
  );
  return rows.map((r) => ({ id: String(r.id), title: r.title }));
}

export async function listStaff(db: Db): Promise<StaffAssignmentView[]> {
  const [rows] = await db.query<Rows<StaffAssignmentView>>(
    `SELECT a.user_id, u.nickname, a.show_id, s.title, a.created_at FROM staff_assignments a
       JOIN users u ON u.id = a.user_id JOIN shows s ON s.id = a.show_id ORDER BY a.user_id, a.show_id`,
  );
  return rows;
}

export async function userExists(c: Db | Conn, userId: string): Promise<boolean> {
  const [rows] = await c.query<Rows<{ id: string }>>('SELECT id FROM users WHERE id = ?', [userId]);
  return rows.length === 1;
}

export async function existingShows(c: Db | Conn, showIds: string[]): Promise<Map<string, string>> {
  const [rows] = await c.query<Rows<{ id: string; title: string }>>(
    'SELECT id, title FROM shows WHERE id IN (?)',
    [showIds],
  );
  return new Map(rows.map((r) => [String(r.id), r.title]));
}

export async function assignmentsOf(c: Db | Conn, userId: string): Promise<string[]> {
  const [rows] = await c.query<Rows<{ show_id: string }>>(
    'SELECT show_id FROM staff_assignments WHERE user_id = ? ORDER BY show_id',
    [userId],
  );
  return rows.map((r) => String(r.show_id));
}

export async function assign(
  c: Conn,
  userId: string,
  showIds: string[],
  by: string,
  now: Date,
): Promise<void> {
  await c.query('INSERT IGNORE INTO staff_assignments (user_id, show_id, created_by, created_at) VALUES ?', [
    showIds.map((s) => [userId, s, by, now]),
  ]);
}

export async function unassign(c: Conn, userId: string, showIds: string[] | undefined): Promise<void> {
  if (showIds)
    await c.query('DELETE FROM staff_assignments WHERE user_id = ? AND show_id IN (?)', [userId, showIds]);
  else await c.query('DELETE FROM staff_assignments WHERE user_id = ?', [userId]);
}

export async function findUsers(db: Db, q: string): Promise<UserHit[]> {
  const like = `%${q.replace(/[\\%_]/g, '\\$&')}%`;
  const [rows] = await db.query<Rows<UserHit>>(
    'SELECT id, nickname, openid, created_at FROM users WHERE id = ? OR openid = ? OR nickname LIKE ? ORDER BY id DESC LIMIT 20',
    [/^\d{1,20}$/.test(q) ? q : '0', q, like],
  );
  return rows;
}

export async function insertInvite(
  c: Conn,
  i: {
    code: string;
    showIds: string[];
    maxUses: number;
    note: string;
    expiresAt: Date;
    by: string;
    now: Date;
  },
): Promise<void> {
  await c.query(
    `INSERT INTO staff_invites (code, show_ids, max_uses, note, expires_at, created_by, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [i.code, JSON.stringify(i.showIds), i.maxUses, i.note, i.expiresAt, i.by, i.now],
  );
}

export async function findInvite(
  c: Db | Conn,
  code: string,
  lock = false,
): Promise<StaffInviteRow | undefined> {
  const [rows] = await c.query<Rows<StaffInviteRow>>(
    `SELECT * FROM staff_invites WHERE code = ?${lock ? ' FOR UPDATE' : ''}`,
    [code],
  );
  return rows[0];
}

export async function listInvites(db: Db): Promise<StaffInviteRow[]> {
  const [rows] = await db.query<Rows<StaffInviteRow>>(
    'SELECT * FROM staff_invites ORDER BY created_at DESC LIMIT 200',
  );
  return rows;
}

export async function hasRedeemed(c: Conn, code: string, userId: string): Promise<boolean> {
  const [rows] = await c.query<Rows<object>>(
    'SELECT 1 FROM staff_invite_redemptions WHERE code = ? AND user_id = ?',
    [code, userId],
  );
  return rows.length > 0;
}

/** Records a redemption and counts it (the invite row is locked by the caller). */
export async function redeem(c: Conn, code: string, userId: string, now: Date): Promise<void> {
  await c.query('INSERT INTO staff_invite_redemptions (code, user_id, redeemed_at) VALUES (?, ?, ?)', [
    code,
    userId,
    now,
  ]);
  await c.query('UPDATE staff_invites SET uses = uses + 1 WHERE code = ?', [code]);
}

/** Per-gate admissions of a show, when check-in (its own issue) records them in `checkins`. */
export async function gateCounts(
  db: Db,
  showId: string,
): Promise<{ gate: string; admitted: number; manual: number }[]> {
  const [rows] = await db.query<Rows<{ gate: string; n: number; manual: number | string | null }>>(
    `SELECT c.gate, COUNT(*) AS n, SUM(c.kind <> 'qr') AS manual FROM checkins c JOIN show_sessions ss ON ss.id = c.session_id
      WHERE ss.show_id = ? GROUP BY c.gate ORDER BY c.gate`,
    [showId],
  );
  return rows.map((r) => ({ gate: String(r.gate), admitted: Number(r.n), manual: Number(r.manual) }));
}

/** Offline scans of a show found at sync to be second uses or refunded tickets (check-in's table). */
export async function gateConflicts(db: Db, showId: string): Promise<GateConflict[]> {
  const [rows] = await db.query<
    Rows<{
      ticket_no: string;
      kind: string;
      gate: string;
      scanned_at: Date;
      first_gate: string | null;
      first_at: Date | null;
    }>
  >(
    `SELECT t.ticket_no, c.kind, c.gate, c.scanned_at, c.first_gate, c.first_at
       FROM checkin_conflicts c JOIN show_sessions ss ON ss.id = c.session_id JOIN tickets t ON t.id = c.ticket_id
      WHERE ss.show_id = ? ORDER BY c.id DESC LIMIT 200`,
    [showId],
  );
  return rows.map((r) => ({
    ticketNo: String(r.ticket_no),
    kind: String(r.kind),
    gate: String(r.gate),
    scannedAt: r.scanned_at.toISOString(),
    firstGate: r.first_gate ?? null,
    firstAt: r.first_at ? r.first_at.toISOString() : null,
  }));
}

/** Revokes an invite that is not revoked yet (a revoked one keeps its first revocation time). */
export async function revokeInvite(c: Conn, code: string, now: Date): Promise<void> {
  await c.query('UPDATE staff_invites SET revoked_at = ? WHERE code = ? AND revoked_at IS NULL', [now, code]);
}
