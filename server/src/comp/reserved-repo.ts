import type { Conn, Db } from '../db/pool';
import type { Rows } from '../db/rows';
import { RESERVED_ORDER_ID } from '../redis/records';

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
