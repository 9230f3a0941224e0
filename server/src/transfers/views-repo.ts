import type { Conn, Db } from '../db/pool';
import type { TransferRow } from './repo';
import type { Rows } from '../db/rows';

/** What transfers show rather than decide on: the receiver's preview and the admin drawer's list. */

/** What the receiver sees of an offer before accepting it (seat columns: a seat ticket's). */
export interface TransferPreviewRow {
  title: string;
  venue_name: string;
  starts_at: Date;
  real_name: number;
  section: string | null;
  row_label: string | null;
  seat_number: string | null;
  zone_name: string | null;
  price_fen: number;
}

export async function previewOf(c: Db | Conn, ticketId: string): Promise<TransferPreviewRow> {
  const [rows] = await c.query<Rows<TransferPreviewRow>>(
    `SELECT sh.title, v.name AS venue_name, ss.starts_at, ss.real_name, vs.section, vs.row_label, vs.seat_number,
            vz.name AS zone_name, oi.price_fen
       FROM tickets t JOIN order_items oi ON oi.id = t.order_item_id
       JOIN show_sessions ss ON ss.id = t.session_id JOIN shows sh ON sh.id = ss.show_id
       JOIN venues v ON v.id = sh.venue_id
       LEFT JOIN venue_seats vs ON vs.id = t.seat_id LEFT JOIN venue_zones vz ON vz.id = t.zone_id
      WHERE t.id = ?`,
    [ticketId],
  );
  return rows[0]!;
}

/** A transfer with its tickets' numbers (to_ticket_no: null until accepted). */
export interface TransferOfOrderRow extends TransferRow {
  from_ticket_no: string;
  to_ticket_no: string | null;
}

/** Every transfer of an order, oldest first, with both ticket numbers (the admin drawer). */
export async function transfersOfOrder(db: Db, orderId: string): Promise<TransferOfOrderRow[]> {
  const [rows] = await db.query<Rows<TransferOfOrderRow>>(
    `SELECT tr.*, ft.ticket_no AS from_ticket_no, nt.ticket_no AS to_ticket_no
       FROM ticket_transfers tr JOIN tickets ft ON ft.id = tr.ticket_id
       LEFT JOIN tickets nt ON nt.id = tr.new_ticket_id
      WHERE tr.order_id = ? ORDER BY tr.id`,
    [orderId],
  );
  return rows;
}
