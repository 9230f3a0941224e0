import { unlessDuplicate, type Conn, type Db } from '../db/pool';
import { attendeeOfItemJoin } from '../attendees/repo';
import type { Rows } from '../db/rows';

export interface TicketForGate {
  id: string;
  ticket_no: string;
  session_id: string;
  show_id: string;
  status: number;
  secret: string;
  real_name: number;
  section: string | null;
  row_label: string | null;
  seat_number: string | null;
  zone_name: string | null;
  starts_at: Date;
}

const TICKET_SQL = `SELECT t.id, t.ticket_no, t.session_id, ss.show_id, ss.starts_at, t.status, t.secret, ss.real_name,
    vs.section, vs.row_label, vs.seat_number, vz.name AS zone_name
  FROM tickets t JOIN show_sessions ss ON ss.id = t.session_id
  LEFT JOIN venue_seats vs ON vs.id = t.seat_id LEFT JOIN venue_zones vz ON vz.id = t.zone_id`;

export async function ticketByNo(db: Db | Conn, ticketNo: string): Promise<TicketForGate | undefined> {
  const [rows] = await db.query<Rows<TicketForGate>>(`${TICKET_SQL} WHERE t.ticket_no = ?`, [ticketNo]);
  return rows[0];
}

/** Locks the ticket row alone (not its session) and reads its status under the lock. */
export async function lockTicket(conn: Conn, ticketId: string): Promise<number> {
  const [rows] = await conn.query<Rows<{ status: number }>>(
    'SELECT status FROM tickets WHERE id = ? FOR UPDATE',
    [ticketId],
  );
  return Number(rows[0]!.status);
}

export async function staffShows(db: Db, userId: string): Promise<Set<string>> {
  const [rows] = await db.query<Rows<{ show_id: string }>>(
    'SELECT show_id FROM staff_assignments WHERE user_id = ?',
    [userId],
  );
  return new Set(rows.map((r) => String(r.show_id)));
}

export interface CheckinRow {
  gate: string;
  staff_user_id: string;
  scanned_at: Date;
}

export async function checkinOf(db: Db | Conn, ticketId: string): Promise<CheckinRow | undefined> {
  const [rows] = await db.query<Rows<CheckinRow>>(
    'SELECT gate, staff_user_id, scanned_at FROM checkins WHERE ticket_id = ?',
    [ticketId],
  );
  return rows[0];
}

/** How a ticket was admitted: its code scanned, or typed in with a second factor (manual entry). */
export type CheckinKind = 'qr' | 'manual_id' | 'manual_code';

/**
 * Whether a binding of this ticket was live at `at` (revoked later still counts: an offline scan
 * made before the re-bind stands). Read under the ticket's row lock, which a re-bind also takes.
 */
export async function bindingLiveAt(
  conn: Conn,
  bindingId: string,
  ticketId: string,
  at: Date,
): Promise<boolean> {
  const [rows] = await conn.query<Rows<object>>(
    'SELECT 1 FROM ticket_bindings WHERE id = ? AND ticket_id = ? AND (revoked_at IS NULL OR revoked_at > ?)',
    [bindingId, ticketId, at],
  );
  return rows.length > 0;
}

/** The first scan wins: false when the ticket was admitted before (the primary key refuses). */
export async function insertCheckin(
  conn: Conn,
  c: {
    ticketId: string;
    sessionId: string;
    gate: string;
    staffUserId: string;
    device: string | null;
    mode: 'online' | 'offline';
    kind: CheckinKind;
    scannedAt: Date;
    now: Date;
  },
): Promise<boolean> {
  return unlessDuplicate(false, async () => {
    await conn.query(
      `INSERT INTO checkins (ticket_id, session_id, gate, staff_user_id, device, mode, kind, scanned_at, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [c.ticketId, c.sessionId, c.gate, c.staffUserId, c.device, c.mode, c.kind, c.scannedAt, c.now],
    );
    return true;
  });
}

export async function attendeeOfTicket(
  db: Db,
  ticketId: string,
): Promise<{ name_masked: string; id_masked: string } | undefined> {
  const [rows] = await db.query<Rows<{ name_masked: string; id_masked: string }>>(
    `SELECT oa.name_masked, oa.id_masked FROM tickets t
       JOIN order_items oi ON oi.id = t.order_item_id
       ${attendeeOfItemJoin('oi')}
      WHERE t.id = ? AND oa.order_id IS NOT NULL`,
    [ticketId],
  );
  return rows[0] as { name_masked: string; id_masked: string } | undefined;
}

export async function gateCount(db: Db, sessionId: string, gate: string): Promise<number> {
  const [rows] = await db.query<Rows<{ n: number }>>(
    'SELECT COUNT(*) n FROM checkins WHERE session_id = ? AND gate = ?',
    [sessionId, gate],
  );
  return Number(rows[0]!.n);
}

/** The session's show and whether it is real-name (null: no such session). */
export async function sessionOfBundle(
  db: Db,
  sessionId: string,
): Promise<{ showId: string; realName: number } | undefined> {
  const [[session]] = await db.query<Rows<{ show_id: string; real_name: number }>>(
    'SELECT show_id, real_name FROM show_sessions WHERE id = ?',
    [sessionId],
  );
  return session ? { showId: String(session.show_id), realName: session.real_name } : undefined;
}

/** A ticket of a session as an offline bundle lists it: its seat or zone and its attendee. */
export type BundleTicketRow = Pick<
  TicketForGate,
  'ticket_no' | 'status' | 'section' | 'row_label' | 'seat_number' | 'zone_name'
> & {
  name_masked: string | null;
  id_masked: string | null;
};

export async function bundleTickets(db: Db, sessionId: string): Promise<BundleTicketRow[]> {
  const [rows] = await db.query<Rows<BundleTicketRow>>(
    `SELECT t.ticket_no, t.status, vs.section, vs.row_label, vs.seat_number, vz.name AS zone_name,
              oa.name_masked, oa.id_masked
         FROM tickets t
         LEFT JOIN venue_seats vs ON vs.id = t.seat_id LEFT JOIN venue_zones vz ON vz.id = t.zone_id
         LEFT JOIN order_items oi ON oi.id = t.order_item_id
         LEFT JOIN order_attendees oa ON oa.order_id = t.order_id
              AND oa.position = (SELECT COUNT(*) FROM order_items x WHERE x.order_id = t.order_id AND x.id < oi.id)
        WHERE t.session_id = ?`,
    [sessionId],
  );
  return rows;
}

/** A refused second scan (duplicate, or of a refunded ticket), kept once per ticket and scan. */
export interface CheckinConflict {
  ticketId: string;
  sessionId: string;
  kind: 'refunded' | 'duplicate';
  gate: string;
  staffUserId: string;
  device: string | null;
  scannedAt: Date;
  firstGate: string | null;
  firstAt: Date | null;
  createdAt: Date;
}

export async function insertConflict(db: Db, c: CheckinConflict): Promise<void> {
  const scan = [c.ticketId, c.sessionId, c.kind, c.gate, c.staffUserId, c.device, c.scannedAt];
  await db.query(
    `INSERT IGNORE INTO checkin_conflicts (ticket_id, session_id, kind, gate, staff_user_id, device, scanned_at, first_gate, first_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [...scan, c.firstGate, c.firstAt, c.createdAt],
  );
}
