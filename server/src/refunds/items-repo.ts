import type { Conn, Db } from '../db/pool';
import { ORDER_STATUS, REFUND_STATUS, TICKET_STATUS } from '../lifecycle/statuses';
import { REFUND_BLOCKS_ADMISSION } from './repo';
import { buyersTicketOfItemJoin, type TicketRow } from '../tickets/repo';
import type { OrderItemRow } from '../orders/types';
import type { Rows } from '../db/rows';

/** A refund_items row: an order item a refund gives back (live_item_id: while the refund is not closed). */
export interface RefundItemRow {
  refund_id: string;
  order_item_id: string;
  order_id: string;
  price_fen: number;
  live_item_id: string | null;
}

/** An order item as a refund sees it: its price, its unit, its ticket and its live refund. */
export interface RefundableItem {
  id: string;
  price_fen: number;
  seat_id: string | null;
  zone_id: string | null;
  slot_no: number | null;
  /** The buyer's ticket's number (null before tickets are issued; a transfer keeps the first). */
  ticket_no: string | null;
  /** The refund (not closed) that holds this item, if any. */
  live_refund_id: string | null;
  /** Named by an exchange (改签) that may still complete (its order not cancelled yet). */
  in_exchange?: boolean;
}

/**
 * Every item of an order with its ticket and live refund. The caller holds the order lock, under
 * which refund items are written; their rows are read under a shared lock all the same (the
 * latest committed, whatever the snapshot). Tickets are not locked here: the check-in guard
 * locks the chosen ones (refuseIfCheckedIn), and only those.
 */
export async function refundableItems(conn: Conn, orderId: string): Promise<RefundableItem[]> {
  const [live] = await conn.query<Rows<Pick<RefundItemRow, 'live_item_id' | 'refund_id'>>>(
    'SELECT live_item_id, refund_id FROM refund_items WHERE order_id = ? AND live_item_id IS NOT NULL LOCK IN SHARE MODE',
    [orderId],
  );
  const liveRefund = new Map(live.map((r) => [String(r.live_item_id), String(r.refund_id)]));
  // An exchanged ticket (改签) was replaced by another order's: it is not this order's to refund.
  const [rows] = await conn.query<
    Rows<
      Pick<OrderItemRow, 'id' | 'price_fen' | 'seat_id' | 'zone_id' | 'slot_no'> & {
        ticket_no: string | null;
        in_exchange: number;
      }
    >
  >(
    `SELECT i.id, i.price_fen, i.seat_id, i.zone_id, i.slot_no, t.ticket_no,
            EXISTS (SELECT 1 FROM exchange_items ei WHERE ei.live_ticket_id = t.id) AS in_exchange
       FROM order_items i ${buyersTicketOfItemJoin('i', 't')}
      WHERE i.order_id = ? AND (t.status IS NULL OR t.status <> ?) ORDER BY i.id`,
    [orderId, TICKET_STATUS.EXCHANGED],
  );
  return rows.map((r) => ({
    id: String(r.id),
    price_fen: Number(r.price_fen),
    seat_id: r.seat_id === null ? null : String(r.seat_id),
    zone_id: r.zone_id === null ? null : String(r.zone_id),
    slot_no: r.slot_no === null ? null : Number(r.slot_no),
    ticket_no: r.ticket_no ?? null,
    live_refund_id: liveRefund.get(String(r.id)) ?? null,
    in_exchange: Number(r.in_exchange) === 1,
  }));
}

/** The items a refund gives back (live: its unique key refuses an item already in one). */
export async function addRefundItems(
  conn: Conn,
  refundId: string,
  orderId: string,
  items: Pick<RefundableItem, 'id' | 'price_fen'>[],
): Promise<void> {
  await conn.query(
    'INSERT INTO refund_items (refund_id, order_item_id, order_id, price_fen, live_item_id) VALUES ?',
    [items.map((i) => [refundId, i.id, orderId, i.price_fen, i.id])],
  );
}

/** The items of one refund, with their units (for voiding their tickets and freeing their seats). */
export async function itemsOfRefund(
  conn: Conn,
  refundId: string,
): Promise<Pick<RefundableItem, 'id' | 'seat_id' | 'zone_id' | 'slot_no'>[]> {
  const [rows] = await conn.query<Rows<Pick<OrderItemRow, 'id' | 'seat_id' | 'zone_id' | 'slot_no'>>>(
    `SELECT i.id, i.seat_id, i.zone_id, i.slot_no FROM refund_items ri JOIN order_items i ON i.id = ri.order_item_id
      WHERE ri.refund_id = ? ORDER BY i.id`,
    [refundId],
  );
  return rows.map((r) => ({
    id: String(r.id),
    seat_id: r.seat_id === null ? null : String(r.seat_id),
    zone_id: r.zone_id === null ? null : String(r.zone_id),
    slot_no: r.slot_no === null ? null : Number(r.slot_no),
  }));
}

/** WeChat closed the refund: its items may be refunded again. */
export async function freeRefundItems(conn: Conn, refundId: string): Promise<void> {
  await conn.query('UPDATE refund_items SET live_item_id = NULL WHERE refund_id = ?', [refundId]);
}

/** How many items of the order are not in a succeeded refund (0: the order is refunded in full). */
export async function itemsNotRefunded(conn: Conn, orderId: string): Promise<number> {
  const [rows] = await conn.query<Rows<{ n: number }>>(
    `SELECT COUNT(*) n FROM order_items i
      WHERE i.order_id = ? AND NOT EXISTS (
        SELECT 1 FROM refund_items ri JOIN refunds r ON r.id = ri.refund_id
         WHERE ri.live_item_id = i.id AND r.status = ?)
        AND NOT EXISTS (SELECT 1 FROM tickets t WHERE t.order_item_id = i.id AND t.status = ?)`,
    [orderId, REFUND_STATUS.SUCCESS, TICKET_STATUS.EXCHANGED],
  );
  return Number(rows[0]!.n);
}

/** The next order refund's number for this payment (the caller holds the payment's lock). */
export async function nextRefundSeq(conn: Conn, paymentId: string): Promise<number> {
  const [rows] = await conn.query<Rows<{ n: number }>>(
    "SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM refunds WHERE payment_id = ? AND kind = 'order'",
    [paymentId],
  );
  return Number(rows[0]!.n);
}

/**
 * What the payment's refunds (not closed, every kind, this one included) give back, read in the
 * refund's own transaction under the payment's lock: the caller refuses the refund (and rolls it
 * back) if it exceeds what was paid.
 */
export async function refundedOrOpenFen(conn: Conn, paymentId: string): Promise<number> {
  const [rows] = await conn.query<Rows<{ fen: number | string }>>(
    'SELECT COALESCE(SUM(amount_fen), 0) AS fen FROM refunds WHERE payment_id = ? AND status <> ?',
    [paymentId, REFUND_STATUS.CLOSED],
  );
  return Number(rows[0]!.fen);
}

/**
 * Items of the order in an order refund that is open or done: their tickets are not admissible.
 * lock=true reads under a shared lock (the latest committed rows, whatever the snapshot).
 */
export function blockedItemsOf(db: Db | Conn, orderId: string, lock = false): Promise<Set<string>> {
  return blockedItemsOfOrders(db, [orderId], lock);
}

/** blockedItemsOf for several orders at once (item ids are unique across orders). */
export async function blockedItemsOfOrders(
  db: Db | Conn,
  orderIds: readonly string[],
  lock = false,
): Promise<Set<string>> {
  if (orderIds.length === 0) return new Set();
  const [rows] = await db.query<Rows<Pick<RefundItemRow, 'order_item_id'>>>(
    `SELECT ri.order_item_id FROM refund_items ri JOIN refunds r ON r.id = ri.refund_id
      WHERE ri.order_id IN (?) AND r.kind = 'order' AND r.status IN (?)${lock ? ' LOCK IN SHARE MODE' : ''}`,
    [orderIds, REFUND_BLOCKS_ADMISSION],
  );
  return new Set(rows.map((r) => String(r.order_item_id)));
}

/**
 * The units (seat ids or slot numbers) of succeeded per-ticket refunds of orders still live
 * (ticketed: not refunded in full) in these sessions, by order: what must be back on sale.
 */
export async function refundedUnitsOfLiveOrders(
  db: Db,
  sessionIds: string[],
): Promise<{ orderId: string; sessionId: string; units: string[] }[]> {
  if (sessionIds.length === 0) return [];
  const [rows] = await db.query<
    Rows<{ order_id: string; session_id: string } & Pick<OrderItemRow, 'seat_id' | 'slot_no'>>
  >(
    `SELECT o.id AS order_id, o.session_id, i.seat_id, i.slot_no
       FROM refund_items ri JOIN refunds r ON r.id = ri.refund_id
       JOIN orders o ON o.id = ri.order_id JOIN order_items i ON i.id = ri.order_item_id
      WHERE r.status = ? AND r.kind = 'order' AND o.status = ? AND o.session_id IN (?)
      ORDER BY o.id, i.id`,
    [REFUND_STATUS.SUCCESS, ORDER_STATUS.TICKETED, sessionIds],
  );
  const out = new Map<string, { orderId: string; sessionId: string; units: string[] }>();
  for (const r of rows) {
    const id = String(r.order_id);
    const e = out.get(id) ?? { orderId: id, sessionId: String(r.session_id), units: [] };
    e.units.push(r.seat_id !== null ? String(r.seat_id) : String(r.slot_no));
    out.set(id, e);
  }
  return [...out.values()];
}

/**
 * Which of some order items are transferred (handed over: the receiver holds the ticket) or
 * transferring (an offer is open), read under the tickets' locks the caller holds.
 */
export async function transferStateOfItems(
  conn: Conn,
  itemIds: string[],
): Promise<{ transferred: boolean; transferring: boolean }> {
  if (itemIds.length === 0) return { transferred: false, transferring: false };
  const [rows] = await conn.query<Rows<Pick<TicketRow, 'status'>>>(
    'SELECT DISTINCT status FROM tickets WHERE order_item_id IN (?) AND status IN (?) LOCK IN SHARE MODE',
    [itemIds, [TICKET_STATUS.TRANSFERRED, TICKET_STATUS.TRANSFERRING]],
  );
  const st = new Set(rows.map((r) => Number(r.status)));
  return { transferred: st.has(TICKET_STATUS.TRANSFERRED), transferring: st.has(TICKET_STATUS.TRANSFERRING) };
}
