import type { RowDataPacket } from 'mysql2/promise';
import type { Db } from '../db/pool';
import type { SessionKeys } from '../redis/keys';
import type { ScriptedRedis } from '../redis/scripts';
import { idemValue, orderRecord, seatValue } from '../redis/records';
import { loadSessionCatalog } from '../catalog/repo';
import { SESSION_STATUS } from '../catalog/types';
import { LIVE_ORDER_STATUSES, ORDER_STATUS } from '../orders/types';

type Row = RowDataPacket & Record<string, any>;

interface LiveOrder {
  id: string;
  user: string;
  status: number;
  qty: number;
  holdUntilMs: number;
  idem: string;
  kind: string;
  units: string[];
  ids: string[];
}

/**
 * The session's orders a rebuild needs, in one pass: the live ones (units, holds, counts) and
 * every order with an idempotency key, cancelled ones too (a retry must still replay its order).
 */
async function sessionOrders(
  db: Db,
  sessionId: string,
  holdGraceMs: number,
): Promise<{ live: Map<string, LiveOrder>; idem: [field: string, value: string][] }> {
  const [rows] = await db.query<Row[]>(
    `SELECT id, user_id, status, quantity, expire_at, idempotency_key, request_hash FROM orders
      WHERE session_id = ? AND (status IN (?) OR idempotency_key IS NOT NULL)`,
    [sessionId, LIVE_ORDER_STATUSES],
  );
  const live = new Map<string, LiveOrder>();
  const idem: [string, string][] = [];
  for (const r of rows) {
    const field = r.idempotency_key ? `${r.user_id}:${r.idempotency_key}` : '';
    if (field) idem.push([field, idemValue.encode(r.id, r.request_hash)]);
    if (!LIVE_ORDER_STATUSES.includes(r.status)) continue; // cancelled or refunded: holds nothing
    live.set(r.id, {
      id: r.id,
      user: r.user_id,
      status: r.status,
      qty: r.quantity,
      holdUntilMs: r.expire_at.getTime() + holdGraceMs,
      idem: field,
      kind: 's',
      units: [],
      ids: [],
    });
  }
  return { live, idem };
}

/**
 * Rebuilds a session's whole Redis state from MySQL, the record: seat holds and sales from
 * seat_claims, free general-admission units from zone_claims, user counts and order records
 * from live orders. Written in one MULTI, meta last, so buyers see old state or new, never half.
 */
export async function rebuildSession(
  db: Db,
  redis: ScriptedRedis,
  k: SessionKeys,
  sessionId: string,
  nowMs: number,
  holdGraceMs: number,
): Promise<boolean> {
  const cat = await loadSessionCatalog(db, sessionId);
  if (!cat) return false;
  const { live: orders, idem } = await sessionOrders(db, sessionId, holdGraceMs);
  const [seatClaims] = await db.query<Row[]>(
    'SELECT seat_id, order_id FROM seat_claims WHERE session_id = ?',
    [sessionId],
  );
  const [zoneClaims] = await db.query<Row[]>(
    'SELECT zone_id, slot_no, order_id FROM zone_claims WHERE session_id = ? ORDER BY order_id, slot_no',
    [sessionId],
  );
  const [idRows] = await db.query<Row[]>(
    'SELECT id_hash, order_id FROM attendee_claims WHERE session_id = ? ORDER BY order_id, id_hash',
    [sessionId],
  );
  for (const r of idRows) orders.get(r.order_id)?.ids.push(r.id_hash);

  const multi = redis.multi();
  multi.del(k.meta, k.seats, k.users, k.orders, k.pending, k.idem, k.zslots, k.ids);

  const seatValues: string[] = [];
  for (const c of seatClaims) {
    const o = orders.get(c.order_id);
    if (!o) continue; // a claim always belongs to a live order; ignore a stray one
    o.units.push(c.seat_id);
    seatValues.push(
      c.seat_id,
      o.status === ORDER_STATUS.PENDING ? seatValue.held(o.id, o.holdUntilMs) : seatValue.sold(o.id),
    );
  }
  for (let i = 0; i < seatValues.length; i += 2000) multi.hset(k.seats, ...seatValues.slice(i, i + 2000));

  const claimedSlots = new Map<string, Set<number>>();
  for (const c of zoneClaims) {
    const o = orders.get(c.order_id);
    if (!o) continue;
    o.kind = `z${c.zone_id}`;
    o.units.push(String(c.slot_no));
    const set = claimedSlots.get(c.zone_id) ?? new Set<number>();
    set.add(c.slot_no);
    claimedSlots.set(c.zone_id, set);
  }
  let claimed = seatValues.length / 2;
  for (const z of cat.zones.values()) {
    const taken = claimedSlots.get(z.id) ?? new Set<number>();
    claimed += taken.size;
    const free: (string | number)[] = [];
    for (let slot = 1; slot <= z.capacity; slot++) if (!taken.has(slot)) free.push(z.id, `${z.id}:${slot}`);
    for (let i = 0; i < free.length; i += 4000) multi.zadd(k.zslots, ...free.slice(i, i + 4000));
  }

  const users = new Map<string, number>();
  for (const o of orders.values()) {
    // A live order always holds units: one without claims left (cancelled, refunded) between the
    // two reads above. Recording it would count it against its buyer and write a seat record with
    // no units, which its release could never free (found by the chaos run).
    if (!o.units.length) continue;
    // Its units count, not orders.quantity: a per-ticket refund gave some of a live order's back.
    const qty = o.units.length;
    users.set(o.user, (users.get(o.user) ?? 0) + qty);
    const state = o.status === ORDER_STATUS.PENDING ? 'H' : 'S';
    const rec = { state, userId: o.user, qty, kind: o.kind, units: o.units, idem: o.idem } as const;
    multi.hset(k.orders, o.id, orderRecord.encode({ ...rec, idHashes: o.ids, over: [] }));
    for (const id of o.ids) multi.hset(k.ids, id, o.id);
    if (o.status === ORDER_STATUS.PENDING) multi.zadd(k.pending, o.holdUntilMs, o.id);
  }
  for (const [user, qty] of users) multi.hset(k.users, user, qty);
  for (const [field, value] of idem) multi.hset(k.idem, field, value);
  // Admission tokens used up by an order stay used up (MySQL keeps each use until it expires).
  const [admissions] = await db.query<Row[]>(
    'SELECT jti, order_id, expires_at FROM admission_uses WHERE session_id = ? AND expires_at > ?',
    [sessionId, new Date(nowMs)],
  );
  for (const a of admissions)
    multi.set(k.admission(a.jti), String(a.order_id), 'PX', a.expires_at.getTime() - nowMs);

  const selling = cat.status === SESSION_STATUS.ON_SALE || cat.status === SESSION_STATUS.SOLD_OUT;
  const open = selling ? '1' : '0';
  multi.hset(
    k.meta,
    'avail',
    cat.capacity - claimed,
    'capacity',
    cat.capacity,
    'rebuiltAt',
    nowMs,
    'open',
    open,
  );
  await multi.exec();
  return true;
}
