import type { ResultSetHeader } from 'mysql2/promise';
import type { Conn, Db } from '../db/pool';
import { byKey, compareIds } from '../db/sql';
import { findOne } from '../db/find-one';
import type { OrderRecord, RefundSummary } from './types';
import type { ItemRow, OrderRow, RefundSummaryRow } from './rows';
import { ORDER_STATUS } from './types';
import { ORDER_LIFECYCLE } from '../lifecycle/transitions';
import { EXCHANGE_STATUS } from '../lifecycle/statuses';
import { attendeeOfItemJoin } from '../attendees/repo';
import { buyersTicketOfItemJoin } from '../tickets/repo';
import { camelRow, type Camelized, type Rows } from '../db/rows';

/** The buyer cancelled and gets the turn back: the token may buy once more. */
export async function forgetAdmissionUse(conn: Conn, jti: string, orderId: string): Promise<void> {
  await conn.query('DELETE FROM admission_uses WHERE jti = ? AND order_id = ?', [jti, orderId]);
}

const ORDER_COLUMNS = `id, order_no, user_id, session_id, status, amount_fen, quantity, idempotency_key,
  request_hash, expire_at, created_at, paid_at, cancelled_at, cancel_reason, prepay_id, admission_jti,
  contact_phone_masked, channel`;

const ORDERS = { table: 'orders', columns: ORDER_COLUMNS };
/** An order and its buyer's WeChat openid, in one statement (a prepay needs both). */
const ORDERS_WITH_BUYER_OPENID = {
  table: 'orders',
  columns: `${ORDER_COLUMNS}, (SELECT openid FROM users WHERE users.id = orders.user_id) AS buyer_openid`,
};

/** The row as services and views see it: the same values under camelCase names. */
const toOrder: (r: OrderRow) => OrderRecord = camelRow;

const findOrder = (db: Db | Conn, where: string, params: unknown[], lock?: boolean) =>
  findOne<OrderRow>(db, ORDERS, where, params, lock).then((r) => r && toOrder(r));

/** lock: take the row lock (FOR UPDATE) inside the caller's transaction, then decide. */
export interface FindOpts {
  lock?: boolean;
}

/** The one-order lookups the services need, by the keys they hold. */
export const orders = {
  byId: (db: Db | Conn, id: string, o: FindOpts = {}) => findOrder(db, 'id = ?', [id], o.lock),
  byNo: (db: Db | Conn, orderNo: string, o: FindOpts = {}) =>
    findOrder(db, 'order_no = ?', [orderNo], o.lock),
  /** The user's order that this idempotency key created (a replayed request answers it). */
  byIdempotencyKey: (db: Db | Conn, userId: string, key: string) =>
    findOrder(db, 'user_id = ? AND idempotency_key = ?', [userId, key]),
  /** The order only if this user placed it. */
  ofUser: (db: Db | Conn, id: string, userId: string) =>
    findOrder(db, 'id = ? AND user_id = ?', [id, userId]),
  /**
   * The order with its buyer's WeChat openid, which a prepay needs both of: one statement (each
   * statement's socket write was ~7% of a prepay's CPU, bench --scenario pay).
   */
  withBuyerOpenid: async (db: Db | Conn, orderNo: string) => {
    const r = await findOne<OrderRow & { buyer_openid: string | null }>(
      db,
      ORDERS_WITH_BUYER_OPENID,
      'order_no = ?',
      [orderNo],
    );
    if (!r) return undefined;
    const { buyer_openid: openid, ...row } = r;
    return { order: toOrder(row), openid: openid ?? undefined };
  },
};

/** Several orders by a key of theirs; locked (FOR UPDATE) when `lock`, as the key's index meets them. */
async function ordersWhereIn(
  db: Db | Conn,
  key: 'id' | 'order_no',
  values: readonly string[],
  lock: boolean,
): Promise<OrderRecord[]> {
  if (values.length === 0) return [];
  const [rows] = await db.query<Rows<OrderRow>>(
    `SELECT ${ORDER_COLUMNS} FROM orders WHERE ${key} IN (?) ORDER BY id${lock ? ' FOR UPDATE' : ''}`,
    [values],
  );
  return rows.map(toOrder);
}

/** Several orders locked (FOR UPDATE) in id order, as every batch locks them: no two wait on each other crosswise. */
export const lockOrders = (conn: Conn, ids: readonly string[]) => ordersWhereIn(conn, 'id', ids, true);

/** Several orders as they are now (a plain read: a caller that decides on them locks them again). */
export const ordersByIds = (db: Db | Conn, ids: readonly string[]) => ordersWhereIn(db, 'id', ids, false);

/**
 * Several orders locked by order number (the key WeChat's notifications carry), in the order_no
 * index's order: the same for every caller.
 */
export const lockOrdersByNo = (conn: Conn, orderNos: readonly string[]) =>
  ordersWhereIn(conn, 'order_no', orderNos, true);

export async function listOrdersOfUser(
  db: Db,
  userId: string,
  status: number | undefined,
  beforeId: string | undefined,
  limit: number,
): Promise<OrderRecord[]> {
  const where = ['user_id = ?'];
  const params: unknown[] = [userId];
  if (status !== undefined) {
    where.push('status = ?');
    params.push(status);
  }
  if (beforeId !== undefined) {
    where.push('id < ?');
    params.push(beforeId);
  }
  const [rows] = await db.query<Rows<OrderRow>>(
    `SELECT ${ORDER_COLUMNS} FROM orders WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`,
    [...params, limit],
  );
  return rows.map(toOrder);
}

/** An order item as the order views see it (camelCase; the row: orders/rows.ts ItemRow). */
export type ItemRecord = Camelized<ItemRow>;

export async function itemsOf(db: Db | Conn, orderIds: string[]): Promise<ItemRecord[]> {
  if (orderIds.length === 0) return [];
  const [rows] = await db.query<Rows<ItemRow>>(
    `SELECT i.order_id, i.seat_id, i.zone_id, i.slot_no, i.tier_id, i.price_fen,
            vs.section, vs.row_label, vs.seat_number, vz.name AS zone_name,
            oa.name_masked AS attendee_name, oa.id_masked AS attendee_id_masked, t.ticket_no, t.status AS ticket_status,
            (SELECT r.status FROM refund_items ri JOIN refunds r ON r.id = ri.refund_id
              WHERE ri.order_item_id = i.id ORDER BY r.id DESC LIMIT 1) AS refund_status
       FROM order_items i
       ${buyersTicketOfItemJoin('i', 't')}
       LEFT JOIN venue_seats vs ON vs.id = i.seat_id
       LEFT JOIN venue_zones vz ON vz.id = i.zone_id
       ${attendeeOfItemJoin('i')}
      WHERE i.order_id IN (?) ORDER BY i.id`,
    [orderIds],
  );
  return rows.map((r) => camelRow<ItemRow>(r));
}

/**
 * Cancels one pending order: a conditional update, so of several instances (or the buyer and
 * the expiry job) exactly one wins; the winner frees the MySQL claims and the user's quota in
 * the same transaction. Returns the order if this call cancelled it.
 */
export async function cancelPending(
  conn: Conn,
  orderId: string,
  reason: string,
  now: Date,
  onlyIfExpired: boolean,
): Promise<OrderRecord | undefined> {
  const t = ORDER_LIFECYCLE.cancel;
  const [res] = await conn.query<ResultSetHeader>(
    `UPDATE ${byKey('orders')} SET status = ?, cancelled_at = ?, cancel_reason = ?
      WHERE id = ? AND status IN (?)${onlyIfExpired ? ' AND expire_at <= ?' : ''}`,
    [t.to, now, reason, orderId, t.from, ...(onlyIfExpired ? [now] : [])],
  );
  if (res.affectedRows !== 1) return undefined;
  const order = (await orders.byId(conn, orderId))!;
  await releaseClaims(conn, order);
  return order;
}

/** Frees what a live order held in MySQL: its seat and unit claims and the user's quota. */
export async function releaseClaims(
  conn: Conn,
  order: Pick<OrderRecord, 'id' | 'userId' | 'sessionId' | 'quantity'>,
) {
  await releaseClaimsOfMany(conn, [order]);
}

/**
 * Frees what live orders (locked by the caller) held in MySQL: one statement per table, as many
 * for a batch as for one order. A user's quantities are summed per quota row first (a
 * multi-table UPDATE changes a row once, however many joined rows match it), listed in key order
 * as the order writer's upserts are. Which row the join locks first is the plan's choice: a
 * deadlock with another writer rolls the caller back (the expiry batch then goes one by one).
 */
export async function releaseClaimsOfMany(
  conn: Conn,
  list: readonly Pick<OrderRecord, 'id' | 'userId' | 'sessionId' | 'quantity'>[],
): Promise<void> {
  if (list.length === 0) return;
  const ids = list.map((o) => o.id);
  await conn.query('DELETE FROM seat_claims WHERE order_id IN (?)', [ids]);
  await conn.query('DELETE FROM zone_claims WHERE order_id IN (?)', [ids]);
  await conn.query('DELETE FROM attendee_claims WHERE order_id IN (?)', [ids]);
  const sums = new Map<string, [string, string, number]>();
  for (const o of list) {
    const k = `${o.userId}:${o.sessionId}`;
    const row = sums.get(k) ?? [o.userId, o.sessionId, 0];
    row[2] += o.quantity;
    sums.set(k, row);
  }
  const rows = [...sums.values()].sort((a, b) => compareIds(a[0], b[0]) || compareIds(a[1], b[1]));
  // Typed as the key columns, so the join compares integers (an id given as text would be a double).
  const freed = rows
    .map(() => 'SELECT CAST(? AS UNSIGNED) AS user_id, CAST(? AS UNSIGNED) AS session_id, ? AS n')
    .join(' UNION ALL ');
  await conn.query(
    `UPDATE user_session_quota q JOIN (${freed}) f ON q.user_id = f.user_id AND q.session_id = f.session_id
        SET q.used = q.used - f.n`,
    rows.flat(),
  );
  await conn.query(
    `UPDATE user_show_quota q JOIN (
        SELECT f.user_id, s.show_id, SUM(f.n) AS n FROM (${freed}) f
          JOIN show_sessions s ON s.id = f.session_id GROUP BY f.user_id, s.show_id
      ) g ON q.user_id = g.user_id AND q.show_id = g.show_id
        SET q.used = q.used - g.n`,
    rows.flat(),
  );
}

/**
 * Frees what some units of a refunded order held in MySQL (a per-ticket refund succeeded): their
 * seat and unit claims and that many of the user's quota. The order's other claims stay.
 */
export async function releaseItemClaims(
  conn: Conn,
  order: Pick<OrderRecord, 'id' | 'userId' | 'sessionId'>,
  items: { seat_id: string | null; zone_id: string | null; slot_no: number | null }[],
) {
  const seats = items.filter((i) => i.seat_id !== null).map((i) => i.seat_id);
  const slots = items.filter((i) => i.zone_id !== null).map((i) => [i.zone_id, i.slot_no]);
  if (seats.length)
    await conn.query('DELETE FROM seat_claims WHERE order_id = ? AND seat_id IN (?)', [order.id, seats]);
  if (slots.length)
    await conn.query('DELETE FROM zone_claims WHERE order_id = ? AND (zone_id, slot_no) IN (?)', [
      order.id,
      slots,
    ]);
  const quota = [items.length, order.userId, order.sessionId];
  await conn.query(
    'UPDATE user_session_quota SET used = used - ? WHERE user_id = ? AND session_id = ?',
    quota,
  );
  await conn.query(
    `UPDATE user_show_quota q JOIN show_sessions s ON s.show_id = q.show_id SET q.used = q.used - ?
      WHERE q.user_id = ? AND s.id = ?`,
    quota,
  );
}

/** The real-name IDs an order holds for its session (given back when it is refunded in full). */
export async function releaseAttendeeClaims(conn: Conn, orderId: string) {
  await conn.query('DELETE FROM attendee_claims WHERE order_id = ?', [orderId]);
}

export async function dueForExpiry(
  db: Db,
  now: Date,
  limit: number,
): Promise<{ id: string; session_id: string }[]> {
  const [rows] = await db.query<Rows<Pick<OrderRow, 'id' | 'session_id'>>>(
    'SELECT id, session_id FROM orders WHERE status = ? AND expire_at <= ? ORDER BY expire_at LIMIT ?',
    [ORDER_STATUS.PENDING, now, limit],
  );
  return rows;
}

/** The order refunds (buyer or admin) of each order, oldest first, for order views. */
export async function refundsOf(db: Db | Conn, orderIds: string[]): Promise<Map<string, RefundSummary[]>> {
  const out = new Map<string, RefundSummary[]>();
  if (orderIds.length === 0) return out;
  const [rows] = await db.query<Rows<RefundSummaryRow & { order_id: string }>>(
    "SELECT order_id, status, amount_fen, fee_fen, created_at, finished_at FROM refunds WHERE kind = 'order' AND order_id IN (?) ORDER BY id",
    [orderIds],
  );
  for (const { order_id: orderId, ...r } of rows)
    out.set(String(orderId), [...(out.get(String(orderId)) ?? []), camelRow<RefundSummaryRow>(r)]);
  return out;
}

/**
 * Units a user holds in live orders (pending, paid, ticketed) of a session and of its show: the
 * quota rows written with each order and given back when it is cancelled, expired or refunded.
 */
export async function heldUnits(
  db: Db | Conn,
  userId: string,
  sessionId: string,
): Promise<{ session: number; show: number }> {
  const [[s]] = await db.query<Rows<{ used: number }>>(
    'SELECT used FROM user_session_quota WHERE user_id = ? AND session_id = ?',
    [userId, sessionId],
  );
  const [[sh]] = await db.query<Rows<{ used: number }>>(
    `SELECT q.used FROM user_show_quota q JOIN show_sessions s ON s.show_id = q.show_id
      WHERE q.user_id = ? AND s.id = ?`,
    [userId, sessionId],
  );
  return { session: Number(s?.used ?? 0), show: Number(sh?.used ?? 0) };
}

/** Refunded orders of these sessions: their units must be neither held nor sold in Redis. */
export async function refundedOrdersOf(
  db: Db,
  sessionIds: string[],
): Promise<{ id: string; session_id: string }[]> {
  if (sessionIds.length === 0) return [];
  const [rows] = await db.query<Rows<Pick<OrderRow, 'id' | 'session_id'>>>(
    'SELECT id, session_id FROM orders WHERE status = ? AND session_id IN (?) ORDER BY id',
    [ORDER_STATUS.REFUNDED, sessionIds],
  );
  return rows.map((r) => ({ id: String(r.id), session_id: String(r.session_id) }));
}

/** Orders paid before `paidBefore` that still have no tickets (their order.paid never landed). */
export async function paidWithoutTickets(db: Db, paidBefore: Date, limit: number): Promise<string[]> {
  const [rows] = await db.query<Rows<Pick<OrderRow, 'id'>>>(
    'SELECT id FROM orders WHERE status = ? AND paid_at <= ? ORDER BY paid_at LIMIT ?',
    [ORDER_STATUS.PAID, paidBefore, limit],
  );
  return rows.map((r) => String(r.id));
}

/**
 * The original order's number when this order bought the new seats of an exchange (改签), live
 * or done; undefined for any other order (a failed exchange's order is refunded in full).
 */
export async function exchangeOriginalNo(db: Db | Conn, orderId: string): Promise<string | undefined> {
  const [rows] = await db.query<Rows<Pick<OrderRow, 'order_no'>>>(
    `SELECT o.order_no FROM exchanges e JOIN orders o ON o.id = e.original_order_id
      WHERE e.exchange_order_id = ? AND e.status <> ?`,
    [orderId, EXCHANGE_STATUS.FAILED],
  );
  return rows[0] ? String(rows[0].order_no) : undefined;
}

/** A zone order honoured late may hold other unit numbers now: its items take them in id order. */
export async function renumberItemSlots(conn: Conn, orderId: string, units: string[]): Promise<void> {
  const [rows] = await conn.query<Rows<{ id: string }>>(
    'SELECT id FROM order_items WHERE order_id = ? ORDER BY id',
    [orderId],
  );
  for (const [i, row] of rows.entries())
    await conn.query('UPDATE order_items SET slot_no = ? WHERE id = ?', [units[i], row.id]);
}

/** The keyed hashes of an order's real-name attendees, in item order. */
export async function attendeeIdHashes(db: Db | Conn, orderId: string): Promise<string[]> {
  const [rows] = await db.query<Rows<{ id_hash: string }>>(
    'SELECT id_hash FROM order_attendees WHERE order_id = ? ORDER BY position',
    [orderId],
  );
  return rows.map((r) => r.id_hash as string);
}

/** The status of each of these orders that exists (expiry's orphan sweep: missing means never written). */
export async function statusesOf(db: Db, orderIds: string[]): Promise<Map<string, number>> {
  const [rows] = await db.query<Rows<Pick<OrderRow, 'id' | 'status'>>>(
    'SELECT id, status FROM orders WHERE id IN (?)',
    [orderIds],
  );
  return new Map(rows.map((r) => [String(r.id), Number(r.status)]));
}
