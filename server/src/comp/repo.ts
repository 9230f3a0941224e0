import type { Conn, Db } from '../db/pool';
import { RESERVED_ORDER_ID } from '../redis/records';
import type { OrderRow } from '../orders/rows';
import type { Rows } from '../db/rows';
import { insertTickets as insertTicketRows, itemsToIssue, type NewTicket } from '../tickets/repo';
import { TICKET_STATUS } from '../tickets/status';

/** A comp_orders row: a complimentary order's person (sealed, masked), claim code and fate. */
export interface CompOrderRow {
  order_id: string;
  session_id: string;
  idem_key: string;
  name_enc: string;
  name_masked: string;
  phone_enc: string;
  phone_masked: string;
  phone_hash: string;
  note: string;
  code_enc: string;
  code_hash: string;
  issued_by: string;
  issued_at: Date;
  claimed_by: string | null;
  claimed_at: Date | null;
  voided_by: string | null;
  voided_at: Date | null;
  void_reason: string | null;
}

/** A comp order with its order's number, status and holder. */
export type CompOrderView = CompOrderRow & Pick<OrderRow, 'order_no' | 'status' | 'user_id'>;

/** A comp ticket with its seat or zone (seat columns: a seat ticket's). */
export interface CompTicketRow {
  order_id: string;
  ticket_no: string;
  status: number;
  zone_id: string | null;
  slot_no: number | null;
  section: string | null;
  row_label: string | null;
  seat_number: string | null;
  zone_name: string | null;
}
type Q = Db | Conn;

/**
 * Reserved units and complimentary orders (migration 0028). A reserved unit is a claim row with
 * order_id 0 (RESERVED_ORDER_ID); a comp ticket issued from it adds a comp_claims row and keeps
 * the reserved claim, so the unit stays off public sale until the organiser releases it.
 */
const R = RESERVED_ORDER_ID;

/** The comp_claims unit of a seat or a zone slot. */
export const seatUnit = (seatId: string) => `s${seatId}`;
export const slotUnit = (zoneId: string, slot: string | number) => `z${zoneId}:${slot}`;

export interface SessionLock {
  id: string;
  status: number;
  starts_at: Date;
  real_name: number;
}

/**
 * Locks the session row: reservations and comp issues of one session run one at a time, so the
 * public share is checked against a count no one else is changing. (The purchase path never
 * locks this row: fans are not slowed down.)
 */
export async function lockSession(c: Conn, sessionId: string): Promise<SessionLock | undefined> {
  const [rows] = await c.query<Rows<SessionLock>>(
    'SELECT id, status, starts_at, real_name FROM show_sessions WHERE id = ? FOR UPDATE',
    [sessionId],
  );
  return rows[0];
}

/** Reserved units of a session: seat ids, and per zone the slot numbers. */
export async function reservedUnits(
  c: Q,
  sessionId: string,
): Promise<{ seats: string[]; zones: Map<string, number> }> {
  const [seats] = await c.query<Rows<{ seat_id: string }>>(
    'SELECT seat_id FROM seat_claims WHERE session_id = ? AND order_id = ? ORDER BY seat_id',
    [sessionId, R],
  );
  const [zones] = await c.query<Rows<{ zone_id: string; n: number }>>(
    'SELECT zone_id, COUNT(*) AS n FROM zone_claims WHERE session_id = ? AND order_id = ? GROUP BY zone_id',
    [sessionId, R],
  );
  return {
    seats: seats.map((s) => String(s.seat_id)),
    zones: new Map(zones.map((z) => [String(z.zone_id), Number(z.n)])),
  };
}

/** Units of the session that carry a live comp ticket ('s<seat>' / 'z<zone>:<slot>'). */
export async function issuedUnits(c: Q, sessionId: string): Promise<string[]> {
  const [rows] = await c.query<Rows<{ unit: string }>>('SELECT unit FROM comp_claims WHERE session_id = ?', [
    sessionId,
  ]);
  return rows.map((r) => String(r.unit));
}

/** Reserves seats in MySQL: a seat in a live order (or reserved already) throws ER_DUP_ENTRY. */
export async function insertReservedSeats(c: Conn, sessionId: string, seatIds: string[]): Promise<void> {
  if (!seatIds.length) return;
  const sorted = [...seatIds].sort((a, b) => Number(a) - Number(b));
  await c.query('INSERT INTO seat_claims (session_id, seat_id, order_id) VALUES ?', [
    sorted.map((s) => [sessionId, s, R]),
  ]);
}

/** Reserves zone slots (the ones Redis took for the reservation); a live one throws ER_DUP_ENTRY. */
export async function insertReservedSlots(c: Conn, sessionId: string, zoneId: string, slots: string[]) {
  if (!slots.length) return;
  const sorted = [...slots].sort((a, b) => Number(a) - Number(b));
  await c.query('INSERT INTO zone_claims (session_id, zone_id, slot_no, order_id) VALUES ?', [
    sorted.map((s) => [sessionId, zoneId, s, R]),
  ]);
}

/** Which of these seats are reserved (locked, in seat order). */
export async function reservedSeatsLocked(c: Conn, sessionId: string, seatIds: string[]): Promise<string[]> {
  const [rows] = await c.query<Rows<{ seat_id: string }>>(
    `SELECT seat_id FROM seat_claims WHERE session_id = ? AND seat_id IN (?) AND order_id = ?
      ORDER BY seat_id FOR UPDATE`,
    [sessionId, seatIds, R],
  );
  return rows.map((r) => String(r.seat_id));
}

/** Deletes the reserved claims of seats (the caller checked none carries a comp ticket). */
export async function deleteReservedSeats(c: Conn, sessionId: string, seatIds: string[]): Promise<void> {
  if (!seatIds.length) return;
  await c.query('DELETE FROM seat_claims WHERE session_id = ? AND seat_id IN (?) AND order_id = ?', [
    sessionId,
    seatIds,
    R,
  ]);
}

/**
 * Reserved slots of a zone carrying no comp ticket, locked: lowest first (for an issue) or
 * highest first (released back to sale), at most `limit`.
 */
export async function freeReservedSlots(
  c: Conn,
  sessionId: string,
  zoneId: string,
  limit: number,
  order: 'ASC' | 'DESC',
): Promise<string[]> {
  const [rows] = await c.query<Rows<{ slot_no: number }>>(
    `SELECT zc.slot_no FROM zone_claims zc
       LEFT JOIN comp_claims cc ON cc.session_id = zc.session_id AND cc.unit = CONCAT('z', zc.zone_id, ':', zc.slot_no)
      WHERE zc.session_id = ? AND zc.zone_id = ? AND zc.order_id = ? AND cc.order_id IS NULL
      ORDER BY zc.slot_no ${order === 'ASC' ? 'ASC' : 'DESC'} LIMIT ? FOR UPDATE`,
    [sessionId, zoneId, R, limit],
  );
  return rows.map((r) => String(r.slot_no));
}

export async function deleteReservedSlots(c: Conn, sessionId: string, zoneId: string, slots: string[]) {
  if (!slots.length) return;
  await c.query(
    'DELETE FROM zone_claims WHERE session_id = ? AND zone_id = ? AND slot_no IN (?) AND order_id = ?',
    [sessionId, zoneId, slots, R],
  );
}

/** Claims reserved units for a comp order: a unit in another live comp throws ER_DUP_ENTRY. */
export async function insertCompClaims(c: Conn, sessionId: string, orderId: string, units: string[]) {
  await c.query('INSERT INTO comp_claims (session_id, unit, order_id) VALUES ?', [
    [...units].sort().map((u) => [sessionId, u, orderId]),
  ]);
}

/** The comp order an organiser's idempotency key created, if any. */
export async function compOrderByKey(
  c: Q,
  key: string,
): Promise<{ id: string; request_hash: string } | undefined> {
  const [rows] = await c.query<Rows<{ order_id: string; request_hash: string }>>(
    `SELECT co.order_id, o.request_hash FROM comp_orders co JOIN orders o ON o.id = co.order_id
      WHERE co.idem_key = ?`,
    [key],
  );
  return rows[0] ? { id: String(rows[0].order_id), request_hash: String(rows[0].request_hash) } : undefined;
}

export interface NewCompOrder {
  id: string;
  orderNo: string;
  sessionId: string;
  requestHash: string;
  items: { seatId: string | null; zoneId: string | null; slotNo: string | null; tierId: string }[];
  now: Date;
}

/** The order (pending: the lifecycle grants it next) and its items, all at price 0. */
export async function insertCompOrder(c: Conn, o: NewCompOrder): Promise<void> {
  await c.query(
    `INSERT INTO orders (id, order_no, user_id, session_id, status, amount_fen, quantity,
       request_hash, expire_at, created_at, channel) VALUES (?, ?, 0, ?, 1, 0, ?, ?, ?, ?, 'comp')`,
    [o.id, o.orderNo, o.sessionId, o.items.length, o.requestHash, o.now, o.now],
  );
  await c.query(
    'INSERT INTO order_items (order_id, session_id, seat_id, zone_id, slot_no, tier_id, price_fen) VALUES ?',
    [o.items.map((i) => [o.id, o.sessionId, i.seatId, i.zoneId, i.slotNo, i.tierId, 0])],
  );
}

export interface CompPerson {
  idemKey: string;
  nameEnc: string;
  nameMasked: string;
  phoneEnc: string;
  phoneMasked: string;
  phoneHash: string;
  note: string;
  codeEnc: string;
  codeHash: string;
}

export async function insertCompPerson(
  c: Conn,
  orderId: string,
  sessionId: string,
  p: CompPerson,
  by: string,
  now: Date,
): Promise<void> {
  await c.query(
    `INSERT INTO comp_orders (order_id, session_id, idem_key, name_enc, name_masked, phone_enc, phone_masked,
       phone_hash, note, code_enc, code_hash, issued_by, issued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      orderId,
      sessionId,
      p.idemKey,
      p.nameEnc,
      p.nameMasked,
      p.phoneEnc,
      p.phoneMasked,
      p.phoneHash,
      p.note,
      p.codeEnc,
      p.codeHash,
      by,
      now,
    ],
  );
}

/** One ticket per item of the (granted) order, valid, held by its user (0 until claimed). */
export async function insertTickets(
  c: Conn,
  orderId: string,
  sessionId: string,
  ticket: () => { no: string; secret: string },
  now: Date,
): Promise<void> {
  const items = await itemsToIssue(c, orderId);
  const tickets = items.map((i): NewTicket => {
    const t = ticket();
    return {
      ticketNo: t.no,
      orderId,
      orderItemId: i.id,
      userId: '0',
      sessionId,
      seatId: i.seatId,
      zoneId: i.zoneId,
      slotNo: i.slotNo,
      secret: t.secret,
      status: TICKET_STATUS.VALID,
      createdAt: now,
    };
  });
  await insertTicketRows(c, tickets);
}

/** A comp order's row with its person, locked when asked. */
export async function compOrder(
  c: Q,
  where: 'order' | 'code',
  value: string,
  lock = false,
): Promise<CompOrderView | undefined> {
  const [rows] = await c.query<Rows<CompOrderView>>(
    `SELECT co.*, o.order_no, o.status, o.user_id FROM comp_orders co JOIN orders o ON o.id = co.order_id
      WHERE ${where === 'order' ? 'co.order_id' : 'co.code_hash'} = ?${lock ? ' FOR UPDATE' : ''}`,
    [value],
  );
  return rows[0];
}

export async function compOrdersOfSession(c: Q, sessionId: string): Promise<CompOrderView[]> {
  const [rows] = await c.query<Rows<CompOrderView>>(
    `SELECT co.*, o.order_no, o.status, o.user_id FROM comp_orders co JOIN orders o ON o.id = co.order_id
      WHERE co.session_id = ? ORDER BY co.issued_at DESC, co.order_id DESC LIMIT 500`,
    [sessionId],
  );
  return rows;
}

/** Tickets of comp orders with their unit, and the masked ID of a real-name order. */
export async function ticketsOf(c: Q, orderIds: string[]): Promise<CompTicketRow[]> {
  if (!orderIds.length) return [];
  const [rows] = await c.query<Rows<CompTicketRow>>(
    `SELECT t.order_id, t.ticket_no, t.status, t.zone_id, t.slot_no, vs.section, vs.row_label, vs.seat_number,
            vz.name AS zone_name
       FROM tickets t LEFT JOIN venue_seats vs ON vs.id = t.seat_id LEFT JOIN venue_zones vz ON vz.id = t.zone_id
      WHERE t.order_id IN (?) ORDER BY t.id`,
    [orderIds],
  );
  return rows;
}

export async function attendeeMasks(c: Q, orderIds: string[]): Promise<Map<string, string>> {
  if (!orderIds.length) return new Map();
  const [rows] = await c.query<Rows<{ order_id: string; id_masked: string }>>(
    'SELECT order_id, id_masked FROM order_attendees WHERE order_id IN (?) AND position = 0',
    [orderIds],
  );
  return new Map(rows.map((r) => [String(r.order_id), String(r.id_masked)]));
}

/** The comp order's attendee ID claims (real-name), for Redis after a void. */
export async function attendeeClaimsOf(c: Q, orderId: string): Promise<string[]> {
  const [rows] = await c.query<Rows<{ id_hash: string }>>(
    'SELECT id_hash FROM attendee_claims WHERE order_id = ?',
    [orderId],
  );
  return rows.map((r) => String(r.id_hash));
}

/** Frees a voided comp order's units (back to reserved only) and its person's ID. */
export async function releaseCompClaims(c: Conn, orderId: string): Promise<void> {
  await c.query('DELETE FROM comp_claims WHERE order_id = ?', [orderId]);
  await c.query('DELETE FROM attendee_claims WHERE order_id = ?', [orderId]);
}

export async function markVoided(c: Conn, orderId: string, by: string, reason: string, now: Date) {
  await c.query('UPDATE comp_orders SET voided_by = ?, voided_at = ?, void_reason = ? WHERE order_id = ?', [
    by,
    now,
    reason,
    orderId,
  ]);
}

/** Binds a comp order and its tickets to the WeChat user who opened the claim code. */
export async function bindToUser(c: Conn, orderId: string, userId: string, now: Date): Promise<void> {
  await c.query('UPDATE comp_orders SET claimed_by = ?, claimed_at = ? WHERE order_id = ?', [
    userId,
    now,
    orderId,
  ]);
  await c.query('UPDATE orders SET user_id = ? WHERE id = ?', [userId, orderId]);
  await c.query('UPDATE tickets SET user_id = ? WHERE order_id = ?', [userId, orderId]);
}

/** Tiers of seats / a zone in the session (the comp item records the tier, at price 0). */
export async function seatTiers(c: Q, sessionId: string, seatIds: string[]): Promise<Map<string, string>> {
  const [rows] = await c.query<Rows<{ seat_id: string; tier_id: string }>>(
    'SELECT seat_id, tier_id FROM session_seats WHERE session_id = ? AND seat_id IN (?)',
    [sessionId, seatIds],
  );
  return new Map(rows.map((r) => [String(r.seat_id), String(r.tier_id)]));
}

export async function zoneTier(c: Q, sessionId: string, zoneId: string): Promise<string | undefined> {
  const [rows] = await c.query<Rows<{ tier_id: string }>>(
    'SELECT tier_id FROM session_zones WHERE session_id = ? AND zone_id = ?',
    [sessionId, zoneId],
  );
  return rows[0] ? String(rows[0].tier_id) : undefined;
}

/** A real-name comp ticket's person: their ID claimed for the session (one ID, one ticket). */
export async function insertAttendee(
  c: Conn,
  orderId: string,
  sessionId: string,
  a: {
    idType: string;
    nameEnc: string;
    idNumberEnc: string;
    nameMasked: string;
    idMasked: string;
    idHash: string;
  },
): Promise<void> {
  await c.query('INSERT INTO attendee_claims (session_id, id_hash, order_id) VALUES (?, ?, ?)', [
    sessionId,
    a.idHash,
    orderId,
  ]);
  await c.query(
    `INSERT INTO order_attendees (order_id, position, id_type, name_enc, id_number_enc, name_masked, id_masked, id_hash)
     VALUES (?, 0, ?, ?, ?, ?, ?, ?)`,
    [orderId, a.idType, a.nameEnc, a.idNumberEnc, a.nameMasked, a.idMasked, a.idHash],
  );
}
