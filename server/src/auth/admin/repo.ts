import type { ResultSetHeader } from 'mysql2/promise';
import { ADMIN_ROLES, type AdminAccount, type AdminRole } from '@showtix/shared-types';
import type { Conn, Db } from '../../db/pool';
import { findOne, type RowSource } from '../../db/find-one';
import { updateById } from '../../db/update-by-id';
import { camelRow, type Camelized, type Packet } from '../../db/rows';

/** An admin account as services see it (its admin_users row under camelCase names). */
export interface AdminRecord {
  id: string;
  username: string;
  displayName: string;
  passwordHash: string;
  roles: string;
  disabled: number;
  lastLoginAt: Date | null;
  createdAt: Date;
}

/** An admin_users row as mysql2 hands it; only this repo sees it. */
interface AdminRow {
  id: string;
  username: string;
  display_name: string;
  password_hash: string;
  roles: string;
  disabled: number;
  last_login_at: Date | null;
  created_at: Date;
}

const toAdmin: (r: AdminRow) => AdminRecord = camelRow;

export function parseRoles(text: string): AdminRole[] {
  return text.split(',').filter((r): r is AdminRole => (ADMIN_ROLES as readonly string[]).includes(r));
}

export function accountView(r: AdminRecord): AdminAccount {
  return {
    id: r.id,
    username: r.username,
    displayName: r.displayName,
    roles: parseRoles(r.roles),
    disabled: r.disabled === 1,
    lastLoginAt: r.lastLoginAt ? r.lastLoginAt.toISOString() : null,
    createdAt: r.createdAt.toISOString(),
  };
}

export async function countAdmins(db: Db): Promise<number> {
  const [[r]] = await db.query<Packet<{ n: string | number }>[]>('SELECT COUNT(*) AS n FROM admin_users');
  return Number(r!.n);
}

const ADMINS: RowSource = { table: 'admin_users', columns: '*' };

/** One account; lock=true takes its row lock (inside a transaction). */
export async function findAdminById(
  db: Db | Conn,
  id: string,
  lock = false,
): Promise<AdminRecord | undefined> {
  const r = await findOne<AdminRow>(db, ADMINS, 'id = ?', [id], lock);
  return r && toAdmin(r);
}

export async function findAdminByUsername(db: Db | Conn, username: string): Promise<AdminRecord | undefined> {
  const r = await findOne<AdminRow>(db, ADMINS, 'username = ?', [username]);
  return r && toAdmin(r);
}

export async function listAdmins(db: Db): Promise<AdminRecord[]> {
  const [rows] = await db.query<Packet<AdminRow>[]>('SELECT * FROM admin_users ORDER BY id');
  return rows.map(toAdmin);
}

/** Inserts unless the username exists; answers the new id or undefined. */
export async function insertAdmin(
  c: Db | Conn,
  a: { username: string; displayName: string; passwordHash: string; roles: AdminRole[] },
): Promise<string | undefined> {
  const [res] = await c.query<ResultSetHeader>(
    'INSERT IGNORE INTO admin_users (username, display_name, password_hash, roles) VALUES (?, ?, ?, ?)',
    [a.username, a.displayName, a.passwordHash, a.roles.join(',')],
  );
  return res.affectedRows === 1 ? String(res.insertId) : undefined;
}

export async function updateAdmin(
  c: Conn,
  id: string,
  u: { displayName?: string; passwordHash?: string; roles?: AdminRole[]; disabled?: boolean },
): Promise<void> {
  await updateById(c, 'admin_users', id, {
    display_name: u.displayName,
    password_hash: u.passwordHash,
    roles: u.roles?.join(','),
    disabled: u.disabled === undefined ? undefined : Number(u.disabled),
  });
}

/** An admin_sessions row joined to its admin (this repo's own). */
interface LoginSessionRow {
  admin_id: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  username: string;
  roles: string;
  disabled: number;
}

export async function insertSession(
  c: Conn,
  s: { tokenHash: string; adminId: string; now: Date; expiresAt: Date; ip: string },
): Promise<void> {
  await c.query(
    `INSERT INTO admin_sessions (token_hash, admin_id, created_at, last_seen_at, expires_at, ip)
     VALUES (?, ?, ?, ?, ?, ?)`,
    [s.tokenHash, s.adminId, s.now, s.now, s.expiresAt, s.ip.slice(0, 64)],
  );
  await c.query('UPDATE admin_users SET last_login_at = ? WHERE id = ?', [s.now, s.adminId]);
}

/** A signed-in admin's session with the admin's name, roles and state (camelCase). */
export type LoginSession = Camelized<LoginSessionRow>;

export async function findSession(db: Db, tokenHash: string): Promise<LoginSession | undefined> {
  const [rows] = await db.query<Packet<LoginSessionRow>[]>(
    `SELECT s.admin_id, s.created_at, s.last_seen_at, s.expires_at, s.revoked_at, a.username, a.roles, a.disabled
       FROM admin_sessions s JOIN admin_users a ON a.id = s.admin_id WHERE s.token_hash = ?`,
    [tokenHash],
  );
  return rows[0] && camelRow<LoginSessionRow>(rows[0]);
}

export async function touchSession(db: Db, tokenHash: string, now: Date): Promise<void> {
  await db.query('UPDATE admin_sessions SET last_seen_at = ? WHERE token_hash = ? AND last_seen_at < ?', [
    now,
    tokenHash,
    now,
  ]);
}

export async function revokeSession(c: Db | Conn, tokenHash: string, now: Date): Promise<void> {
  await c.query('UPDATE admin_sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL', [
    now,
    tokenHash,
  ]);
}

/** Ends every session of an account (password, role or status changed). */
export async function revokeSessionsOf(c: Conn, adminId: string, now: Date): Promise<void> {
  await c.query('UPDATE admin_sessions SET revoked_at = ? WHERE admin_id = ? AND revoked_at IS NULL', [
    now,
    adminId,
  ]);
}
