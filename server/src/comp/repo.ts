import type { Conn, Db } from '../db/pool';
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
 * Complimentary orders (migration 0028): their rows, claims, tickets and attendees. The reserved
 * units they are issued from are reserved-repo.ts's.
 */
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
