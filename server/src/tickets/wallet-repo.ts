import type { RowDataPacket } from 'mysql2/promise';
import type { Db } from '../db/pool';
import { attendeeOfItemJoin } from '../attendees/repo';

/** One ticket of a user's wallet with what its card shows (tickets/views.ts). */
export interface WalletRow {
  id: string;
  ticketNo: string;
  sessionId: string;
  seatId: string | null;
  zoneId: string | null;
  status: number;
  scannedAt: Date | null;
  orderNo: string;
  title: string;
  venueName: string;
  startsAt: Date;
  /** The seat's (set on a seat ticket), the zone's (on a zone ticket), the attendee's (real-name). */
  section: string | null;
  rowLabel: string | null;
  seatNumber: string | null;
  zoneName: string | null;
  attendeeName: string | null;
  attendeeIdMasked: string | null;
  /** Set on a ticket the user received by transfer (转赠). */
  transferredFrom: string | null;
  /** The show's transfer settings (null: the show has none). */
  transferEnabled: number | null;
  transferCutoffMinutes: number | null;
  transferOnceOnly: number | null;
}

/** The user's tickets, soonest session first. */
export async function walletRowsOfUser(db: Db, userId: string): Promise<WalletRow[]> {
  const [rows] = await db.query<RowDataPacket[]>(
    `SELECT t.id, t.ticket_no, t.session_id, t.seat_id, t.zone_id, t.status, c.scanned_at, o.order_no, sh.title, v.name AS venue_name,
            ss.starts_at, vs.section, vs.row_label, vs.seat_number, vz.name AS zone_name,
            oa.name_masked AS attendee_name, oa.id_masked AS attendee_id_masked, t.transferred_from,
            sts.enabled AS transfer_enabled, sts.cutoff_minutes AS transfer_cutoff_minutes,
            sts.once_only AS transfer_once_only
       FROM tickets t
       JOIN orders o ON o.id = t.order_id
       JOIN order_items oi ON oi.id = t.order_item_id
       ${attendeeOfItemJoin('oi')}
       JOIN show_sessions ss ON ss.id = t.session_id
       JOIN shows sh ON sh.id = ss.show_id
       LEFT JOIN show_transfer_settings sts ON sts.show_id = sh.id
       JOIN venues v ON v.id = sh.venue_id
       LEFT JOIN venue_seats vs ON vs.id = t.seat_id
       LEFT JOIN venue_zones vz ON vz.id = t.zone_id
       LEFT JOIN checkins c ON c.ticket_id = t.id
      WHERE t.user_id = ? ORDER BY ss.starts_at, t.id`,
    [userId],
  );
  return rows.map((r) => ({
    id: r.id,
    ticketNo: r.ticket_no,
    sessionId: r.session_id,
    seatId: r.seat_id,
    zoneId: r.zone_id,
    status: r.status,
    scannedAt: r.scanned_at,
    orderNo: r.order_no,
    title: r.title,
    venueName: r.venue_name,
    startsAt: r.starts_at,
    section: r.section,
    rowLabel: r.row_label,
    seatNumber: r.seat_number,
    zoneName: r.zone_name,
    attendeeName: r.attendee_name,
    attendeeIdMasked: r.attendee_id_masked,
    transferredFrom: r.transferred_from,
    transferEnabled: r.transfer_enabled,
    transferCutoffMinutes: r.transfer_cutoff_minutes,
    transferOnceOnly: r.transfer_once_only,
  }));
}
