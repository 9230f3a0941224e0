import type { ResultSetHeader } from 'mysql2/promise';
import type { Conn, Db } from '../db/pool';
import { findOne, type RowSource } from '../db/find-one';
import { EXCHANGE_STATUS, ORDER_STATUS, TICKET_STATUS } from '../lifecycle/statuses';
import { buyersOwnTicket } from '../tickets/repo';
import type { OrderAttendeeRow } from '../orders/types';
import { camelRow, type Rows } from '../db/rows';
import type { ExchangeRow, ExchangeViewRow } from './rows';

export { EXCHANGE_STATUS };

/** An exchange as services see it (exchanges/rows.ts: the row it is mapped from). */
export interface ExchangeRecord {
  id: string;
  userId: string;
  originalOrderId: string;
  exchangeOrderId: string;
  fromSessionId: string;
  toSessionId: string;
  status: number;
  oldFen: number;
  newFen: number;
  diffFen: number;
  refundId: string | null;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

const EXCHANGES: RowSource = {
  table: 'exchanges',
  columns: `id, user_id, original_order_id, exchange_order_id, from_session_id, to_session_id, status,
    old_fen, new_fen, diff_fen, refund_id, error, created_at, finished_at`,
};

/** The row under camelCase names, the same values. */
const toExchange: (r: ExchangeRow) => ExchangeRecord = camelRow;

const one = (db: Db | Conn, where: string, params: unknown[], lock = false) =>
  findOne<ExchangeRow>(db, EXCHANGES, where, params, lock).then((r) => r && toExchange(r));

/** The one-exchange lookups, by the keys the services hold. */
export const exchanges = {
  byId: (db: Db | Conn, id: string, o: { lock?: boolean } = {}) => one(db, 'id = ?', [id], o.lock),
  /** The fan's exchange, or none if it is another user's. */
  byIdOfUser: (db: Db | Conn, id: string, userId: string) => one(db, 'id = ? AND user_id = ?', [id, userId]),
  /** The exchange whose new seats this order bought (any status). */
  byExchangeOrder: (db: Db | Conn, orderId: string) => one(db, 'exchange_order_id = ?', [orderId]),
  byExchangeOrderOfUser: (db: Db | Conn, orderId: string, userId: string) =>
    one(db, 'exchange_order_id = ? AND user_id = ?', [orderId, userId]),
  /** The finished exchange whose new seats this order bought. */
  doneByExchangeOrder: (db: Db | Conn, orderId: string) =>
    one(db, 'exchange_order_id = ? AND status = ?', [orderId, EXCHANGE_STATUS.DONE]),
};

/**
 * Which of these orders are exchange orders (改签: an exchanges row names them). A plain read: the
 * row is written with the order, before it can be paid, and never removed.
 */
export async function exchangeOrdersAmong(db: Db | Conn, orderIds: readonly string[]): Promise<Set<string>> {
  if (orderIds.length === 0) return new Set();
  const [rows] = await db.query<Rows<Pick<ExchangeRow, 'exchange_order_id'>>>(
    'SELECT exchange_order_id FROM exchanges WHERE exchange_order_id IN (?)',
    [orderIds],
  );
  return new Set(rows.map((r) => String(r.exchange_order_id)));
}

/** A ticket of the original order as an exchange sees it: its item, price, unit and state. */
export interface OldTicket {
  id: string;
  ticket_no: string;
  status: number;
  order_item_id: string;
  price_fen: number;
  seat_id: string | null;
  zone_id: string | null;
  slot_no: number | null;
  /** Its position among the order's items: its real-name attendee's position. */
  position: number;
  checked_in: number;
}

/**
 * The chosen tickets of an order, in the order they were named. lock: the tickets' rows are
 * locked (id order) and check-ins read under a shared lock (the latest committed: check-in
 * admits under the ticket's row lock, so none can commit between this read and a status move).
 * Only the buyer's own tickets (tickets/repo.ts buyersOwnTicket): a ticket a receiver got by transfer sits
 * on the giver's order item but is the receiver's, and the giver's own ticket of that item is
 * TRANSFERRED, so the giver can never exchange a ticket given away.
 */
export async function ticketsOfOrder(
  conn: Db | Conn,
  orderId: string,
  where: { ticketNos: string[] } | { itemIds: string[] },
  lock = false,
): Promise<OldTicket[]> {
  const byNo = 'ticketNos' in where;
  const keys = byNo ? where.ticketNos : where.itemIds;
  if (lock)
    await conn.query(
      `SELECT t.id FROM tickets t WHERE t.order_id = ? AND ${byNo ? 't.ticket_no' : 't.order_item_id'} IN (?)
          AND ${buyersOwnTicket('t')} ORDER BY t.id FOR UPDATE`,
      [orderId, keys],
    );
  const [rows] = await conn.query<Rows<OldTicket>>(
    `SELECT t.id, t.ticket_no, t.status, t.order_item_id, i.price_fen, i.seat_id, i.zone_id, i.slot_no,
            (SELECT COUNT(*) FROM order_items x WHERE x.order_id = i.order_id AND x.id < i.id) AS position,
            (SELECT COUNT(*) FROM checkins c WHERE c.ticket_id = t.id${lock ? ' LOCK IN SHARE MODE' : ''}) AS checked_in
       FROM tickets t JOIN order_items i ON i.id = t.order_item_id
      WHERE t.order_id = ? AND ${byNo ? 't.ticket_no' : 't.order_item_id'} IN (?) AND ${buyersOwnTicket('t')}`,
    [orderId, keys],
  );
  const found = new Map(rows.map((r) => [String(byNo ? r.ticket_no : r.order_item_id), r]));
  return keys
    .filter((k) => found.has(k))
    .map((k) => {
      const r = found.get(k)!;
      return {
        id: String(r.id),
        ticket_no: r.ticket_no,
        status: Number(r.status),
        order_item_id: String(r.order_item_id),
        price_fen: Number(r.price_fen),
        seat_id: r.seat_id === null ? null : String(r.seat_id),
        zone_id: r.zone_id === null ? null : String(r.zone_id),
        slot_no: r.slot_no === null ? null : Number(r.slot_no),
        position: Number(r.position),
        checked_in: Number(r.checked_in),
      };
    });
}

/** An old ticket may be given up only while it is valid and was never admitted. */
export const exchangeable = (t: OldTicket): boolean => t.status === TICKET_STATUS.VALID && t.checked_in === 0;

/**
 * Exchanges of this order whose exchange order was cancelled (not paid in time, or given up)
 * no longer hold their tickets: their live keys are cleared (the caller holds the order lock).
 */
export async function freeCancelledExchanges(conn: Conn, originalOrderId: string): Promise<void> {
  await conn.query(
    `UPDATE exchange_items ei JOIN exchanges e ON e.id = ei.exchange_id
       JOIN orders o ON o.id = e.exchange_order_id
        SET ei.live_ticket_id = NULL
      WHERE e.original_order_id = ? AND o.status = ? AND ei.live_ticket_id IS NOT NULL`,
    [originalOrderId, ORDER_STATUS.CANCELLED],
  );
}

export async function insertExchange(
  conn: Conn,
  e: {
    userId: string;
    originalOrderId: string;
    exchangeOrderId: string;
    fromSessionId: string;
    toSessionId: string;
    oldFen: number;
    newFen: number;
    now: Date;
  },
  tickets: OldTicket[],
): Promise<string> {
  const [res] = await conn.query<ResultSetHeader>(
    `INSERT INTO exchanges (user_id, original_order_id, exchange_order_id, from_session_id, to_session_id,
       status, old_fen, new_fen, diff_fen, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      e.userId,
      e.originalOrderId,
      e.exchangeOrderId,
      e.fromSessionId,
      e.toSessionId,
      EXCHANGE_STATUS.PENDING,
      e.oldFen,
      e.newFen,
      e.newFen - e.oldFen,
      e.now,
    ],
  );
  const id = String(res.insertId);
  // live_ticket_id's unique key: no ticket is in two live exchanges, whatever was checked above.
  await conn.query(
    'INSERT INTO exchange_items (exchange_id, position, old_ticket_id, old_item_id, live_ticket_id) VALUES ?',
    [tickets.map((t, i) => [id, i, t.id, t.order_item_id, t.id])],
  );
  return id;
}

/** The old tickets' items of an exchange, in position order (the new order's items' order). */
export async function itemsOfExchange(conn: Db | Conn, exchangeId: string): Promise<string[]> {
  const [rows] = await conn.query<Rows<{ old_item_id: string }>>(
    'SELECT old_item_id FROM exchange_items WHERE exchange_id = ? ORDER BY position',
    [exchangeId],
  );
  return rows.map((r) => String(r.old_item_id));
}

/** A failed exchange gives its tickets back (they may be exchanged or refunded again). */
export async function freeExchangeItems(conn: Conn, exchangeId: string): Promise<void> {
  await conn.query('UPDATE exchange_items SET live_ticket_id = NULL WHERE exchange_id = ?', [exchangeId]);
}

/**
 * Copies the real-name attendees of the old items to the exchange order (same sealed values,
 * the new item's position): the ticket's holder moves with it.
 */
export async function copyAttendees(
  conn: Conn,
  fromOrderId: string,
  positions: number[],
  toOrderId: string,
): Promise<void> {
  if (positions.length === 0) return;
  const [rows] = await conn.query<Rows<Omit<OrderAttendeeRow, 'order_id'>>>(
    `SELECT position, id_type, name_enc, id_number_enc, name_masked, id_masked, id_hash
       FROM order_attendees WHERE order_id = ? AND position IN (?)`,
    [fromOrderId, positions],
  );
  const byPos = new Map(rows.map((r) => [Number(r.position), r]));
  const copies = positions
    .map((p, i) => [byPos.get(p), i] as const)
    .filter(([r]) => r)
    .map(([r, i]) => [
      toOrderId,
      i,
      r!.id_type,
      r!.name_enc,
      r!.id_number_enc,
      r!.name_masked,
      r!.id_masked,
      r!.id_hash,
    ]);
  if (copies.length === 0) return;
  await conn.query(
    `INSERT INTO order_attendees (order_id, position, id_type, name_enc, id_number_enc, name_masked, id_masked, id_hash) VALUES ?`,
    [copies],
  );
}

/** The ID hashes of the real-name attendees of these positions of an order. */
export async function idHashesOf(conn: Db | Conn, orderId: string, positions: number[]): Promise<string[]> {
  if (positions.length === 0) return [];
  const [rows] = await conn.query<Rows<Pick<OrderAttendeeRow, 'position' | 'id_hash'>>>(
    'SELECT position, id_hash FROM order_attendees WHERE order_id = ? AND position IN (?)',
    [orderId, positions],
  );
  const byPos = new Map(rows.map((r) => [Number(r.position), String(r.id_hash)]));
  return positions.filter((p) => byPos.has(p)).map((p) => byPos.get(p)!);
}

/**
 * One ID, one ticket per session: the old order's claims on these IDs move to the exchange order
 * (same session) or are given up (the exchange order claimed them in its own session).
 */
export async function moveAttendeeClaims(
  conn: Conn,
  o: { fromOrderId: string; toOrderId: string; sameSession: boolean; idHashes: string[] },
): Promise<void> {
  if (o.idHashes.length === 0) return;
  if (o.sameSession)
    await conn.query('UPDATE attendee_claims SET order_id = ? WHERE order_id = ? AND id_hash IN (?)', [
      o.toOrderId,
      o.fromOrderId,
      o.idHashes,
    ]);
  else
    await conn.query('DELETE FROM attendee_claims WHERE order_id = ? AND id_hash IN (?)', [
      o.fromOrderId,
      o.idHashes,
    ]);
}

export async function showExchangeRules(
  db: Db | Conn,
  showId: string,
): Promise<{ allowed: boolean; cutoffMinutes: number } | undefined> {
  const [rows] = await db.query<Rows<{ exchange_allowed: number; exchange_cutoff_minutes: number }>>(
    'SELECT exchange_allowed, exchange_cutoff_minutes FROM shows WHERE id = ?',
    [showId],
  );
  const r = rows[0];
  return r ? { allowed: !!r.exchange_allowed, cutoffMinutes: Number(r.exchange_cutoff_minutes) } : undefined;
}

/** An exchange with what its views need: order numbers, statuses, ticket numbers, refund. */
export interface ExchangeViewRecord extends ExchangeRecord {
  originalOrderNo: string;
  exchangeOrderNo: string;
  exchangeOrderStatus: number;
  oldTicketNos: string | null;
  newTicketNos: string | null;
  refundStatus: number | null;
  refundFen: number | null;
}

/** Exchanges where these orders are the original or the exchange order, oldest first. */
export async function exchangesOf(db: Db | Conn, orderIds: string[]): Promise<ExchangeViewRecord[]> {
  if (orderIds.length === 0) return [];
  const [rows] = await db.query<Rows<ExchangeViewRow>>(
    `SELECT e.*, oo.order_no AS original_order_no, xo.order_no AS exchange_order_no,
            xo.status AS exchange_order_status, r.status AS refund_status, r.amount_fen AS refund_fen,
            (SELECT GROUP_CONCAT(t.ticket_no ORDER BY ei.position) FROM exchange_items ei
               JOIN tickets t ON t.id = ei.old_ticket_id WHERE ei.exchange_id = e.id) AS old_ticket_nos,
            (SELECT GROUP_CONCAT(t.ticket_no ORDER BY t.order_item_id) FROM tickets t
              WHERE t.order_id = e.exchange_order_id) AS new_ticket_nos
       FROM exchanges e
       JOIN orders oo ON oo.id = e.original_order_id
       JOIN orders xo ON xo.id = e.exchange_order_id
       LEFT JOIN refunds r ON r.id = e.refund_id
      WHERE e.original_order_id IN (?) OR e.exchange_order_id IN (?)
      ORDER BY e.id`,
    [orderIds, orderIds],
  );
  const toView: (r: ExchangeViewRow) => ExchangeViewRecord = camelRow;
  return rows.map((r) => ({ ...toView(r), id: String(r.id) }));
}

/** An exchange into another session claims its attendees' IDs there (one ID, one ticket). */
export async function claimIds(
  conn: Conn,
  sessionId: string,
  orderId: string,
  idHashes: string[],
): Promise<void> {
  if (idHashes.length === 0) return;
  await conn.query('INSERT INTO attendee_claims (session_id, id_hash, order_id) VALUES ?', [
    idHashes.map((h) => [sessionId, h, orderId]),
  ]);
}

/** The next number among a payment's exchange refunds (改签 differences and shares). */
export async function nextExchangeSeq(conn: Conn, paymentId: string): Promise<number> {
  const [[n]] = await conn.query<Rows<{ seq: number }>>(
    "SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM refunds WHERE payment_id = ? AND kind = 'exchange'",
    [paymentId],
  );
  return Number(n!.seq);
}

/**
 * Whether every item of the order was exchanged (改签) for another order's: nothing of it is left
 * to refund here (its value went with the exchange order, refunded on its own).
 */
export async function exchangedInFull(db: Db, orderId: string): Promise<boolean> {
  const [[r]] = await db.query<Rows<{ n: number; x: number }>>(
    `SELECT COUNT(*) AS n, COALESCE(SUM(EXISTS (SELECT 1 FROM tickets t
              WHERE t.order_item_id = i.id AND t.transferred_from IS NULL AND t.status = ?)), 0) AS x
       FROM order_items i WHERE i.order_id = ?`,
    [TICKET_STATUS.EXCHANGED, orderId],
  );
  return Number(r!.n) > 0 && Number(r!.n) === Number(r!.x);
}
