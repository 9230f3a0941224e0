import type { RowDataPacket } from 'mysql2/promise';
import type { Db } from '../db/pool';

type Row = RowDataPacket & Record<string, any>;

export const TICKET_STATUS_NAME: Record<number, 'valid' | 'voided' | 'refunding'> = { 1: 'valid', 2: 'voided', 3: 'refunding' };

export interface TicketView {
  ticketId: string;
  orderNo: string;
  sessionId: string;
  seatId?: string;
  zoneId?: string;
  status: 'valid' | 'voided' | 'refunding';
  qr: string;
  showTitle: string;
  venueName: string;
  startsAt: string;
  seat?: { section: string; row: string; number: string };
  zoneName?: string;
}

/** The QR payload shown at the gate (versioned; the check-in issue adds signatures and rotation). */
export function qrPayload(ticketNo: string): string {
  return `STX1.${ticketNo}`;
}

export async function ticketsOfUser(db: Db, userId: string): Promise<TicketView[]> {
  const [rows] = await db.query<Row[]>(
    `SELECT t.ticket_no, t.session_id, t.seat_id, t.zone_id, t.status, o.order_no, sh.title, v.name AS venue_name,
            ss.starts_at, vs.section, vs.row_label, vs.seat_number, vz.name AS zone_name
       FROM tickets t
       JOIN orders o ON o.id = t.order_id
       JOIN show_sessions ss ON ss.id = t.session_id
       JOIN shows sh ON sh.id = ss.show_id
       JOIN venues v ON v.id = sh.venue_id
       LEFT JOIN venue_seats vs ON vs.id = t.seat_id
       LEFT JOIN venue_zones vz ON vz.id = t.zone_id
      WHERE t.user_id = ? ORDER BY ss.starts_at, t.id`,
    [userId],
  );
  return rows.map((r) => ({
    ticketId: r.ticket_no,
    orderNo: r.order_no,
    sessionId: r.session_id,
    ...(r.seat_id ? { seatId: r.seat_id, seat: { section: r.section, row: r.row_label, number: r.seat_number } } : {}),
    ...(r.zone_id ? { zoneId: r.zone_id, zoneName: r.zone_name } : {}),
    status: TICKET_STATUS_NAME[r.status]!,
    qr: qrPayload(r.ticket_no),
    showTitle: r.title,
    venueName: r.venue_name,
    startsAt: r.starts_at.toISOString(),
  }));
}
