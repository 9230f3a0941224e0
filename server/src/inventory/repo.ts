import type { RowDataPacket } from 'mysql2/promise';
import type { Db } from '../db/pool';
import { LIVE_ORDER_STATUSES } from '../orders/types';

/** The columns of an orders row a rebuild reads. */
interface RebuildOrderRow extends RowDataPacket {
  id: string;
  user_id: string;
  status: number;
  quantity: number;
  expire_at: Date;
  idempotency_key: string | null;
  request_hash: string | null;
}

export interface RebuildOrder {
  id: string;
  userId: string;
  status: number;
  quantity: number;
  expireAt: Date;
  idempotencyKey: string | null;
  /** Written with the idempotency key: set whenever the key is. */
  requestHash: string | null;
}

/**
 * A session's orders a rebuild needs, in one pass: the live ones and every order with an
 * idempotency key, cancelled ones too. Complimentary orders are not among them.
 */
export async function rebuildOrders(db: Db, sessionId: string): Promise<RebuildOrder[]> {
  const [rows] = await db.query<RebuildOrderRow[]>(
    `SELECT id, user_id, status, quantity, expire_at, idempotency_key, request_hash FROM orders
      WHERE session_id = ? AND channel <> 'comp' AND (status IN (?) OR idempotency_key IS NOT NULL)`,
    [sessionId, LIVE_ORDER_STATUSES],
  );
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    status: r.status,
    quantity: r.quantity,
    expireAt: r.expire_at,
    idempotencyKey: r.idempotency_key,
    requestHash: r.request_hash,
  }));
}

/** An attendee_claims row with its order's channel. */
interface AttendeeClaimRow extends RowDataPacket {
  id_hash: string;
  order_id: string;
  channel: string;
}

export interface AttendeeClaim {
  idHash: string;
  orderId: string;
  channel: string;
}

/** Every real-name ID claimed in the session, by order then hash. */
export async function attendeeClaimsOf(db: Db, sessionId: string): Promise<AttendeeClaim[]> {
  const [rows] = await db.query<AttendeeClaimRow[]>(
    `SELECT ac.id_hash, ac.order_id, o.channel FROM attendee_claims ac JOIN orders o ON o.id = ac.order_id
      WHERE ac.session_id = ? ORDER BY ac.order_id, ac.id_hash`,
    [sessionId],
  );
  return rows.map((r) => ({ idHash: r.id_hash, orderId: r.order_id, channel: r.channel }));
}

/** One seat_claims row. */
interface SeatClaimRow extends RowDataPacket {
  seat_id: string;
  order_id: string;
}

export interface SeatClaim {
  seatId: string;
  orderId: string;
}

export async function seatClaimsOf(db: Db, sessionId: string): Promise<SeatClaim[]> {
  const [rows] = await db.query<SeatClaimRow[]>(
    'SELECT seat_id, order_id FROM seat_claims WHERE session_id = ?',
    [sessionId],
  );
  return rows.map((r) => ({ seatId: String(r.seat_id), orderId: String(r.order_id) }));
}

/** One zone_claims row. */
interface ZoneClaimRow extends RowDataPacket {
  zone_id: string;
  slot_no: number;
  order_id: string;
}

export interface ZoneClaim {
  zoneId: string;
  slotNo: number;
  orderId: string;
}

/** The session's taken general-admission slots, by order then slot. */
export async function zoneClaimsOf(db: Db, sessionId: string): Promise<ZoneClaim[]> {
  const [rows] = await db.query<ZoneClaimRow[]>(
    'SELECT zone_id, slot_no, order_id FROM zone_claims WHERE session_id = ? ORDER BY order_id, slot_no',
    [sessionId],
  );
  return rows.map((r) => ({ zoneId: r.zone_id, slotNo: r.slot_no, orderId: r.order_id }));
}

export async function countZoneClaims(db: Db, sessionId: string): Promise<number> {
  const [[r]] = await db.query<(RowDataPacket & { n: string | number })[]>(
    'SELECT COUNT(*) AS n FROM zone_claims WHERE session_id = ?',
    [sessionId],
  );
  return Number(r!.n);
}

/** One admission_uses row. */
interface AdmissionUseRow extends RowDataPacket {
  jti: string;
  order_id: string;
  expires_at: Date;
}

/** Admission tokens used up by an order that have not expired yet. */
export async function liveAdmissionUses(
  db: Db,
  sessionId: string,
  now: Date,
): Promise<{ jti: string; orderId: string; expiresAt: Date }[]> {
  const [rows] = await db.query<AdmissionUseRow[]>(
    'SELECT jti, order_id, expires_at FROM admission_uses WHERE session_id = ? AND expires_at > ?',
    [sessionId, now],
  );
  return rows.map((r) => ({ jti: r.jti, orderId: String(r.order_id), expiresAt: r.expires_at }));
}

/** One user_session_quota row. */
interface QuotaRow extends RowDataPacket {
  user_id: string;
  used: number;
}

/** Each buyer's units counted against the session's purchase limit (those with any). */
export async function usedQuota(db: Db, sessionId: string): Promise<Map<string, number>> {
  const [rows] = await db.query<QuotaRow[]>(
    'SELECT user_id, used FROM user_session_quota WHERE session_id = ? AND used <> 0',
    [sessionId],
  );
  return new Map(rows.map((q) => [String(q.user_id), Number(q.used)]));
}
