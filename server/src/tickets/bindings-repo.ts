import type { ResultSetHeader } from 'mysql2/promise';
import type { Conn, Db } from '../db/pool';
import type { TicketRow } from './repo';
import type { Rows } from '../db/rows';

export interface BindingRow {
  id: string;
  ticket_id: string;
  device_key: string;
  manual_key: string;
  valid_until: Date;
  created_at: Date;
  revoked_at: Date | null;
  revoked_reason: string | null;
}

/** The caller's ticket, locked: binds and admissions of one ticket take turns on this row. */
export async function lockOwnTicket(
  conn: Conn,
  ticketNo: string,
  userId: string,
): Promise<
  | { id: string; session_id: string; status: number; starts_at: Date; rebind_freeze_minutes: number | null }
  | undefined
> {
  const [rows] = await conn.query<
    Rows<
      Pick<TicketRow, 'id' | 'session_id' | 'status'> & {
        starts_at: Date;
        rebind_freeze_minutes: number | null;
      }
    >
  >(
    `SELECT t.id, t.session_id, t.status, ss.starts_at, ss.rebind_freeze_minutes
       FROM tickets t JOIN show_sessions ss ON ss.id = t.session_id
      WHERE t.ticket_no = ? AND t.user_id = ? FOR UPDATE`,
    [ticketNo, userId],
  );
  return rows[0];
}

export async function liveBinding(c: Db | Conn, ticketId: string): Promise<BindingRow | undefined> {
  const [rows] = await c.query<Rows<BindingRow>>('SELECT * FROM ticket_bindings WHERE live_ticket_id = ?', [
    ticketId,
  ]);
  return rows[0] as BindingRow | undefined;
}

export async function bindingById(c: Db | Conn, id: string): Promise<BindingRow | undefined> {
  const [rows] = await c.query<Rows<BindingRow>>('SELECT * FROM ticket_bindings WHERE id = ?', [id]);
  return rows[0] as BindingRow | undefined;
}

/** Bindings of a ticket made since `since` (re-bind rate limit). */
export async function bindingsSince(conn: Conn, ticketId: string, since: Date): Promise<number> {
  const [rows] = await conn.query<Rows<{ n: number }>>(
    'SELECT COUNT(*) n FROM ticket_bindings WHERE ticket_id = ? AND created_at >= ?',
    [ticketId, since],
  );
  return Number(rows[0]!.n);
}

export async function revokeBinding(conn: Conn, id: string, reason: string, now: Date): Promise<void> {
  await conn.query(
    'UPDATE ticket_bindings SET revoked_at = ?, revoked_reason = ? WHERE id = ? AND revoked_at IS NULL',
    [now, reason, id],
  );
}

export async function insertBinding(
  conn: Conn,
  b: {
    ticketId: string;
    userId: string;
    deviceKey: string;
    manualKey: string;
    deviceId: string | null;
    validUntil: Date;
    now: Date;
  },
): Promise<string> {
  const [res] = await conn.query<ResultSetHeader>(
    `INSERT INTO ticket_bindings (ticket_id, user_id, device_key, manual_key, device_id, valid_until, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [b.ticketId, b.userId, b.deviceKey, b.manualKey, b.deviceId, b.validUntil, b.now],
  );
  return String(res.insertId);
}

/** Live bindings of a user's tickets, by ticket id (the wallet). */
export async function liveBindingsOfUser(db: Db, userId: string): Promise<Map<string, BindingRow>> {
  const [rows] = await db.query<Rows<BindingRow>>(
    `SELECT b.* FROM ticket_bindings b JOIN tickets t ON t.id = b.live_ticket_id WHERE t.user_id = ?`,
    [userId],
  );
  return new Map(rows.map((r) => [String(r.ticket_id), r as BindingRow]));
}

/** Revoked bindings of a session's tickets: the offline bundle's revocation list. */
export async function revokedBindingsOfSession(db: Db, sessionId: string): Promise<string[]> {
  const [rows] = await db.query<Rows<Pick<BindingRow, 'id'>>>(
    `SELECT b.id FROM ticket_bindings b JOIN tickets t ON t.id = b.ticket_id
      WHERE t.session_id = ? AND b.revoked_at IS NOT NULL`,
    [sessionId],
  );
  return rows.map((r) => String(r.id));
}

/** Every binding of a ticket, newest first (the admin ticket view). */
export async function bindingsOfTicket(db: Db, ticketId: string): Promise<BindingRow[]> {
  const [rows] = await db.query<Rows<BindingRow>>(
    'SELECT * FROM ticket_bindings WHERE ticket_id = ? ORDER BY id DESC',
    [ticketId],
  );
  return rows as BindingRow[];
}
