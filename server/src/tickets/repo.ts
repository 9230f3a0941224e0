import type { ResultSetHeader } from 'mysql2/promise';
import type { Conn } from '../db/pool';
import type { Transition } from '../lifecycle/transitions';
import type { OrderItemRow } from '../orders/types';
import { TICKET_STATUS } from './status';
import type { Rows } from '../db/rows';

/** A tickets row (status: lifecycle/statuses.ts TICKET_STATUS). */
export interface TicketRow {
  id: string;
  ticket_no: string;
  order_id: string;
  order_item_id: string;
  user_id: string;
  session_id: string;
  seat_id: string | null;
  zone_id: string | null;
  slot_no: number | null;
  secret: string;
  status: number;
  created_at: Date;
  voided_at: Date | null;
  /** The giver's ticket this one was transferred from (null: the buyer's own). */
  transferred_from: string | null;
}

/**
 * The buyer's own ticket of an order item, as SQL: the one with no `transferred_from`. A ticket a
 * receiver got by transfer sits on the giver's order item too, but is the receiver's; the giver's
 * own ticket of that item stays (TRANSFERRED), so an item has exactly one such ticket once issued.
 * One home for that rule: order views, refunds and exchanges.
 */
export function buyersOwnTicket(ticket = 't'): string {
  return `${ticket}.transferred_from IS NULL`;
}

/** LEFT JOIN from an order item to the buyer's own ticket of it (none before tickets are issued). */
export function buyersTicketOfItemJoin(item = 'i', ticket = 't'): string {
  return `LEFT JOIN tickets ${ticket} ON ${ticket}.order_item_id = ${item}.id AND ${buyersOwnTicket(ticket)}`;
}

/**
 * Locks every ticket of an order, in id order (check-in locks one ticket row alone, so the two
 * never wait on each other in opposite orders). Returns the locked ticket ids.
 */
export async function lockOrderTickets(conn: Conn, orderId: string): Promise<string[]> {
  const [rows] = await conn.query<Rows<Pick<TicketRow, 'id'>>>(
    'SELECT id FROM tickets WHERE order_id = ? ORDER BY id FOR UPDATE',
    [orderId],
  );
  return rows.map((r) => String(r.id));
}

/**
 * How many of these (locked) tickets were admitted. A locking read: it sees check-ins committed
 * after this transaction's snapshot was taken, which a plain read would miss.
 */
export async function admittedCount(conn: Conn, ticketIds: string[]): Promise<number> {
  if (ticketIds.length === 0) return 0;
  const [rows] = await conn.query<Rows<{ n: number }>>(
    'SELECT COUNT(*) n FROM checkins WHERE ticket_id IN (?) LOCK IN SHARE MODE',
    [ticketIds],
  );
  return Number(rows[0]!.n);
}

/** Moves every ticket of an order by one lifecycle event (only tickets in its from-states). */
export async function moveOrderTickets(
  conn: Conn,
  orderId: string,
  t: Transition,
  now?: Date,
): Promise<number> {
  const voiding = t.to === TICKET_STATUS.VOIDED;
  const [res] = await conn.query<ResultSetHeader>(
    `UPDATE tickets SET status = ?${voiding ? ', voided_at = ?' : ''} WHERE order_id = ? AND status IN (?)`,
    [t.to, ...(voiding ? [now ?? null] : []), orderId, t.from],
  );
  return res.affectedRows;
}

/** Locks the tickets of some order items, in id order (as lockOrderTickets). Their ids. */
export async function lockItemTickets(conn: Conn, itemIds: string[]): Promise<string[]> {
  const [rows] = await conn.query<Rows<Pick<TicketRow, 'id'>>>(
    'SELECT id FROM tickets WHERE order_item_id IN (?) ORDER BY id FOR UPDATE',
    [itemIds],
  );
  return rows.map((r) => String(r.id));
}

/** Moves the tickets of some order items by one lifecycle event (a per-ticket refund). */
export async function moveItemTickets(
  conn: Conn,
  itemIds: string[],
  t: Transition,
  now?: Date,
): Promise<number> {
  if (itemIds.length === 0) return 0;
  const voiding = t.to === TICKET_STATUS.VOIDED;
  const [res] = await conn.query<ResultSetHeader>(
    `UPDATE tickets SET status = ?${voiding ? ', voided_at = ?' : ''} WHERE order_item_id IN (?) AND status IN (?)`,
    [t.to, ...(voiding ? [now ?? null] : []), itemIds, t.from],
  );
  return res.affectedRows;
}

/** An order item as ticket issue needs it: its order, and its seat or its zone and unit number. */
export interface IssuableItem {
  id: string;
  orderId: string;
  seatId: string | null;
  zoneId: string | null;
  slotNo: number | null;
}

/** The order's items in id order: one ticket each. */
export function itemsToIssue(conn: Conn, orderId: string): Promise<IssuableItem[]> {
  return itemsToIssueOf(conn, [orderId]);
}

/** The items of several orders, by order then id (TicketIssuer's batches). */
export async function itemsToIssueOf(conn: Conn, orderIds: readonly string[]): Promise<IssuableItem[]> {
  if (orderIds.length === 0) return [];
  const [rows] = await conn.query<
    Rows<Pick<OrderItemRow, 'id' | 'order_id' | 'seat_id' | 'zone_id' | 'slot_no'>>
  >(
    'SELECT id, order_id, seat_id, zone_id, slot_no FROM order_items WHERE order_id IN (?) ORDER BY order_id, id',
    [orderIds],
  );
  return rows.map((r) => ({
    id: r.id,
    orderId: String(r.order_id),
    seatId: r.seat_id,
    zoneId: r.zone_id,
    slotNo: r.slot_no,
  }));
}

/** A ticket to write (issueTickets: one per order item, in one multi-row INSERT). */
export interface NewTicket {
  ticketNo: string;
  orderId: string;
  orderItemId: string;
  userId: string;
  sessionId: string;
  seatId: string | null;
  zoneId: string | null;
  slotNo: number | null;
  secret: string;
  status: number;
  createdAt: Date;
}

export async function insertTickets(conn: Conn, tickets: NewTicket[]): Promise<void> {
  const rows = tickets.map((t) => [
    t.ticketNo,
    t.orderId,
    t.orderItemId,
    t.userId,
    t.sessionId,
    t.seatId,
    t.zoneId,
    t.slotNo,
    t.secret,
    t.status,
    t.createdAt,
  ]);
  await conn.query(
    'INSERT INTO tickets (ticket_no, order_id, order_item_id, user_id, session_id, seat_id, zone_id, slot_no, secret, status, created_at) VALUES ?',
    [rows],
  );
}
