import type { RowDataPacket } from 'mysql2/promise';
import type { Ticket, TicketStatus } from '@showtix/shared-types';
import { CODE_STEP_MS } from '@showtix/shared-types/dist/ticket-code';
import type { Db } from '../db/pool';
import type { BindingService } from './bindings';
import { liveBindingsOfUser } from './bindings-repo';
import { attendeeOfItemJoin } from '../attendees/item-join';

type Row = RowDataPacket & Record<string, any>;

const TICKET_STATUS_NAME: Record<number, TicketStatus> = {
  1: 'valid',
  2: 'voided',
  3: 'refunding',
  4: 'transferred',
  5: 'transferring',
  6: 'exchanged',
};

/** Whether the 转赠 button may show: the show allows it now and the ticket is plainly valid. */
function transferable(r: Row, now: Date): boolean {
  if (r.status !== 1 || r.scanned_at || !r.transfer_enabled) return false;
  if (r.transfer_once_only && r.transferred_from !== null) return false;
  return now.getTime() < r.starts_at.getTime() - Number(r.transfer_cutoff_minutes) * 60_000;
}

/**
 * The caller's tickets. Nothing here can make a code: a ticket's `binding` names the device key
 * the server bound to it (public), and only that device's private key turns it into codes.
 */
export async function ticketsOfUser(
  db: Db,
  bindings: BindingService,
  userId: string,
  now: Date,
  offers: Map<string, { code: string; expiresAt: string }> = new Map(),
): Promise<Ticket[]> {
  const [rows] = await db.query<Row[]>(
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
  const live = await liveBindingsOfUser(db, userId);
  return rows.map((r) => {
    const row = live.get(String(r.id));
    const binding = row ? bindings.view(row, r.ticket_no, String(r.session_id)) : undefined;
    return {
      ticketId: r.ticket_no,
      orderNo: r.order_no,
      sessionId: r.session_id,
      ...(r.seat_id
        ? { seatId: r.seat_id, seat: { section: r.section, row: r.row_label, number: r.seat_number } }
        : {}),
      ...(r.zone_id ? { zoneId: r.zone_id, zoneName: r.zone_name } : {}),
      status: TICKET_STATUS_NAME[r.status]!,
      qr: binding?.binding ?? '',
      ...(binding ? { binding } : {}),
      codeStepMs: CODE_STEP_MS,
      ...(r.scanned_at ? { checkedInAt: r.scanned_at.toISOString() } : {}),
      showTitle: r.title,
      venueName: r.venue_name,
      startsAt: r.starts_at.toISOString(),
      ...(r.attendee_name ? { attendee: { name: r.attendee_name, idMasked: r.attendee_id_masked } } : {}),
      ...(r.status === 5 && offers.has(String(r.id)) ? { transferOffer: offers.get(String(r.id))! } : {}),
      ...(r.transferred_from !== null ? { received: true } : {}),
      transferable: transferable(r, now),
    };
  });
}
