import type { ResultSetHeader } from 'mysql2/promise';
import type { SealedAttendee } from '../attendees/crypto';
import type { Conn, Db } from '../db/pool';
import { findOne, type RowSource } from '../db/find-one';
import { TICKET_STATUS } from '../lifecycle/statuses';
import type { TicketRow as TicketTableRow } from '../tickets/repo';
import type { Rows } from '../db/rows';

export type TransferState = 'open' | 'accepted' | 'cancelled' | 'expired';

/** The organiser's rules of a show (no row: transfers not allowed). */
export interface SettingsRow {
  enabled: boolean;
  cutoffMinutes: number;
  onceOnly: boolean;
}

export async function settingsOf(db: Db | Conn, showId: string): Promise<SettingsRow | undefined> {
  const [rows] = await db.query<Rows<{ enabled: number; cutoff_minutes: number; once_only: number }>>(
    'SELECT enabled, cutoff_minutes, once_only FROM show_transfer_settings WHERE show_id = ?',
    [showId],
  );
  const r = rows[0];
  return r
    ? { enabled: r.enabled === 1, cutoffMinutes: r.cutoff_minutes, onceOnly: r.once_only === 1 }
    : undefined;
}

export async function saveSettings(db: Db | Conn, showId: string, s: SettingsRow, by: string, now: Date) {
  await db.query(
    `INSERT INTO show_transfer_settings (show_id, enabled, cutoff_minutes, once_only, updated_by, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON DUPLICATE KEY UPDATE enabled = VALUES(enabled), cutoff_minutes = VALUES(cutoff_minutes),
       once_only = VALUES(once_only), updated_by = VALUES(updated_by), updated_at = VALUES(updated_at)`,
    [showId, s.enabled, s.cutoffMinutes, s.onceOnly, by, now],
  );
}

/** A ticket as a transfer sees it (the tickets row, tickets/repo.ts, without its secret). */
export type TicketRow = Pick<
  TicketTableRow,
  | 'id'
  | 'ticket_no'
  | 'order_id'
  | 'order_item_id'
  | 'user_id'
  | 'session_id'
  | 'seat_id'
  | 'zone_id'
  | 'slot_no'
  | 'status'
  | 'transferred_from'
>;

const TICKET_COLS = `id, ticket_no, order_id, order_item_id, user_id, session_id, seat_id, zone_id, slot_no,
  status, transferred_from`;

/** The ticket row alone, locked (check-in and refunds lock it too, so they take turns). */
export async function lockTicketByNo(conn: Conn, ticketNo: string): Promise<TicketRow | undefined> {
  const [rows] = await conn.query<Rows<TicketRow>>(
    `SELECT ${TICKET_COLS} FROM tickets WHERE ticket_no = ? FOR UPDATE`,
    [ticketNo],
  );
  return rows[0];
}

export async function lockTicketById(conn: Conn, id: string): Promise<TicketRow | undefined> {
  const [rows] = await conn.query<Rows<TicketRow>>(
    `SELECT ${TICKET_COLS} FROM tickets WHERE id = ? FOR UPDATE`,
    [id],
  );
  return rows[0];
}

/** Where and when a ticket's session is, and the show's transfer rules (read, not locked). */
export interface SessionContext {
  show_id: string;
  starts_at: Date;
  session_status: number;
  real_name: number;
  settings: SettingsRow | undefined;
}

export async function sessionContext(c: Db | Conn, sessionId: string): Promise<SessionContext> {
  const [rows] = await c.query<Rows<Omit<SessionContext, 'settings'>>>(
    'SELECT show_id, starts_at, status AS session_status, real_name FROM show_sessions WHERE id = ?',
    [sessionId],
  );
  const r = rows[0]!;
  return { ...r, settings: await settingsOf(c, String(r.show_id)) };
}

/** Whether the ticket was admitted (a locking read: sees check-ins committed after the snapshot). */
export async function checkedIn(conn: Conn, ticketId: string): Promise<boolean> {
  const [rows] = await conn.query<Rows<object>>(
    'SELECT 1 FROM checkins WHERE ticket_id = ? LOCK IN SHARE MODE',
    [ticketId],
  );
  return rows.length > 0;
}

/** How many times the item was handed over already (at-most-once rule). */
export async function handOversOfItem(conn: Conn, itemId: string): Promise<number> {
  const [rows] = await conn.query<Rows<{ n: number }>>(
    'SELECT COUNT(*) n FROM tickets WHERE order_item_id = ? AND status = ?',
    [itemId, TICKET_STATUS.TRANSFERRED],
  );
  return Number(rows[0]!.n);
}

export interface TransferRow {
  id: string;
  ticket_id: string;
  order_id: string;
  order_item_id: string;
  session_id: string;
  giver_user_id: string;
  nonce: string;
  state: TransferState;
  expires_at: Date;
  created_at: Date;
  closed_at: Date | null;
  receiver_user_id: string | null;
  new_ticket_id: string | null;
  /** The real-name attendee before and after the hand-over (masked and hashed; null: not real-name). */
  from_name_masked: string | null;
  from_id_masked: string | null;
  from_id_hash: string | null;
  to_name_masked: string | null;
  to_id_masked: string | null;
  to_id_hash: string | null;
}

/** Whole offers: every lookup below is by a unique key (id, code_hash, open_ticket_id). */
const TRANSFERS: RowSource = { table: 'ticket_transfers', columns: '*' };

export const openTransferOfTicket = (conn: Conn, ticketId: string) =>
  findOne<TransferRow>(conn, TRANSFERS, 'open_ticket_id = ?', [ticketId], true);

export const lockTransferByHash = (conn: Conn, codeHash: string) =>
  findOne<TransferRow>(conn, TRANSFERS, 'code_hash = ?', [codeHash], true);

/** An offer by its code's hash (a plain read: the caller locks the ticket, then the transfer). */
export const transferByHash = (db: Db | Conn, codeHash: string) =>
  findOne<TransferRow>(db, TRANSFERS, 'code_hash = ?', [codeHash]);

export async function ticketOfTransfer(c: Db | Conn, id: string): Promise<string> {
  const [rows] = await c.query<Rows<Pick<TransferRow, 'ticket_id'>>>(
    'SELECT ticket_id FROM ticket_transfers WHERE id = ?',
    [id],
  );
  return String(rows[0]!.ticket_id);
}

/** Locks the show row (its settings are written one at a time); false when there is no such show. */
export async function lockShow(conn: Conn, showId: string): Promise<boolean> {
  const [rows] = await conn.query<Rows<{ id: string }>>('SELECT id FROM shows WHERE id = ? FOR UPDATE', [
    showId,
  ]);
  return rows.length > 0;
}

export const lockTransferById = (conn: Conn, id: string) =>
  findOne<TransferRow>(conn, TRANSFERS, 'id = ?', [id], true);

export async function insertTransfer(
  conn: Conn,
  t: { ticket: TicketRow; nonce: string; codeHash: string; expiresAt: Date; now: Date },
): Promise<string> {
  const [res] = await conn.query<ResultSetHeader>(
    `INSERT INTO ticket_transfers (ticket_id, order_id, order_item_id, session_id, giver_user_id, nonce, code_hash,
       expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      t.ticket.id,
      t.ticket.order_id,
      t.ticket.order_item_id,
      t.ticket.session_id,
      t.ticket.user_id,
      t.nonce,
      t.codeHash,
      t.expiresAt,
      t.now,
    ],
  );
  return String(res.insertId);
}

/** Closes an open offer (cancelled or expired); false when it was not open any more. */
export async function closeTransfer(conn: Conn, id: string, state: 'cancelled' | 'expired', now: Date) {
  const [res] = await conn.query<ResultSetHeader>(
    "UPDATE ticket_transfers SET state = ?, closed_at = ? WHERE id = ? AND state = 'open'",
    [state, now, id],
  );
  return res.affectedRows === 1;
}

export interface AttendeeChange {
  from: { name_masked: string; id_masked: string; id_hash: string } | null;
  to: { nameMasked: string; idMasked: string; idHash: string } | null;
}

export async function markAccepted(
  conn: Conn,
  id: string,
  a: { receiverId: string; newTicketId: string; now: Date; attendee: AttendeeChange },
): Promise<void> {
  const { from, to } = a.attendee;
  const [res] = await conn.query<ResultSetHeader>(
    `UPDATE ticket_transfers SET state = 'accepted', closed_at = ?, receiver_user_id = ?, new_ticket_id = ?,
       from_name_masked = ?, from_id_masked = ?, from_id_hash = ?, to_name_masked = ?, to_id_masked = ?, to_id_hash = ?
     WHERE id = ? AND state = 'open'`,
    [
      a.now,
      a.receiverId,
      a.newTicketId,
      from?.name_masked ?? null,
      from?.id_masked ?? null,
      from?.id_hash ?? null,
      to?.nameMasked ?? null,
      to?.idMasked ?? null,
      to?.idHash ?? null,
      id,
    ],
  );
  if (res.affectedRows !== 1) throw new Error(`transfer ${id} was not open under its lock`);
}

/** The receiver's ticket: same order item and unit, new number and secret, VALID. */
export async function insertReceivedTicket(
  conn: Conn,
  old: TicketRow,
  t: { ticketNo: string; secret: string; userId: string; now: Date },
): Promise<string> {
  const [res] = await conn.query<ResultSetHeader>(
    `INSERT INTO tickets (ticket_no, order_id, order_item_id, user_id, session_id, seat_id, zone_id, slot_no, secret,
       status, created_at, transferred_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      t.ticketNo,
      old.order_id,
      old.order_item_id,
      t.userId,
      old.session_id,
      old.seat_id,
      old.zone_id,
      old.slot_no,
      t.secret,
      TICKET_STATUS.VALID,
      t.now,
      old.id,
    ],
  );
  return String(res.insertId);
}

export async function ticketNoOf(c: Db | Conn, id: string): Promise<string> {
  const [rows] = await c.query<Rows<{ ticket_no: string }>>('SELECT ticket_no FROM tickets WHERE id = ?', [
    id,
  ]);
  return String(rows[0]!.ticket_no);
}

/**
 * The real-name attendee of an order item (see attendeeOfItemJoin in attendees/repo.ts:
 * position = the index of the item among its order's items), locked: the attendee row is what
 * the gate checks.
 */
export async function lockItemAttendee(
  conn: Conn,
  orderId: string,
  itemId: string,
): Promise<{ id: string; name_masked: string; id_masked: string; id_hash: string } | undefined> {
  const [rows] = await conn.query<
    Rows<{ id: string; name_masked: string; id_masked: string; id_hash: string }>
  >(
    `SELECT id, name_masked, id_masked, id_hash FROM order_attendees
      WHERE order_id = ? AND position = (SELECT COUNT(*) FROM order_items x WHERE x.order_id = ? AND x.id < ?)
      FOR UPDATE`,
    [orderId, orderId, itemId],
  );
  return rows[0];
}

/**
 * Moves the session's one-ID-one-ticket claim from the old ID to the new one. The primary key
 * (session_id, id_hash) refuses an ID that already holds a ticket of the session (ER_DUP_ENTRY),
 * across orders and accounts: the caller maps it to ID_TAKEN and rolls back.
 */
export async function moveAttendeeClaim(
  conn: Conn,
  a: { sessionId: string; orderId: string; fromHash: string; toHash: string },
): Promise<void> {
  await conn.query('DELETE FROM attendee_claims WHERE session_id = ? AND id_hash = ? AND order_id = ?', [
    a.sessionId,
    a.fromHash,
    a.orderId,
  ]);
  await conn.query('INSERT INTO attendee_claims (session_id, id_hash, order_id) VALUES (?, ?, ?)', [
    a.sessionId,
    a.toHash,
    a.orderId,
  ]);
}

/** The item's attendee re-bound to the receiver's (the giver's is kept, masked, on the transfer). */
export async function replaceAttendee(conn: Conn, attendeeId: string, s: SealedAttendee): Promise<void> {
  await conn.query(
    `UPDATE order_attendees SET id_type = ?, name_enc = ?, id_number_enc = ?, name_masked = ?, id_masked = ?, id_hash = ?
      WHERE id = ?`,
    [s.idType, s.nameEnc, s.idNumberEnc, s.nameMasked, s.idMasked, s.idHash, attendeeId],
  );
}

/** A frequent attendee of the receiver's (encrypted), to re-bind a real-name ticket to. */
export async function savedAttendee(
  c: Db | Conn,
  userId: string,
  id: string,
): Promise<{ id_type: string; name_enc: string; id_number_enc: string } | undefined> {
  const [rows] = await c.query<Rows<{ id_type: string; name_enc: string; id_number_enc: string }>>(
    'SELECT id_type, name_enc, id_number_enc FROM user_attendees WHERE id = ? AND user_id = ?',
    [id, userId],
  );
  return rows[0];
}

/** Open offers past their cutoff (the sweeper's work). */
export async function dueOffers(db: Db, now: Date, limit: number): Promise<string[]> {
  const [rows] = await db.query<Rows<Pick<TransferRow, 'id'>>>(
    "SELECT id FROM ticket_transfers WHERE state = 'open' AND expires_at <= ? ORDER BY expires_at LIMIT ?",
    [now, limit],
  );
  return rows.map((r) => String(r.id));
}

/** Open offers of a user's tickets, by ticket id (the wallet shows the code to share again). */
export async function openOffersOfUser(db: Db, userId: string): Promise<Map<string, TransferRow>> {
  const [rows] = await db.query<Rows<TransferRow>>(
    "SELECT * FROM ticket_transfers WHERE giver_user_id = ? AND state = 'open'",
    [userId],
  );
  return new Map(rows.map((r) => [String(r.ticket_id), r]));
}
