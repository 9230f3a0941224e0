import type { Db } from '../db/pool';
import type { SessionKeys } from '../redis/keys';
import type { ScriptedRedis } from '../redis/scripts';
import { idemValue, orderRecord, RESERVED_ORDER_ID, seatValue } from '../redis/records';
import { loadSessionCatalog } from '../catalog/repo';
import { SESSION_STATUS } from '../catalog/types';
import { LIVE_ORDER_STATUSES, ORDER_STATUS } from '../orders/types';
import {
  attendeeClaimsOf,
  liveAdmissionUses,
  rebuildOrders,
  seatClaimsOf,
  zoneClaimsOf,
  type AttendeeClaim,
  type SeatClaim,
  type ZoneClaim,
} from './repo';

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
 * Complimentary orders are not among them: their units are reserved ones, restored as reserved.
 */
async function sessionOrders(
  db: Db,
  sessionId: string,
  holdGraceMs: number,
): Promise<{ live: Map<string, LiveOrder>; idem: [field: string, value: string][] }> {
  const rows = await rebuildOrders(db, sessionId);
  const live = new Map<string, LiveOrder>();
  const idem: [string, string][] = [];
  for (const r of rows) {
    const field = r.idempotencyKey ? `${r.userId}:${r.idempotencyKey}` : '';
    if (field) idem.push([field, idemValue.encode(r.id, r.requestHash!)]);
    if (!(LIVE_ORDER_STATUSES as number[]).includes(r.status)) continue; // cancelled or refunded: holds nothing
    live.set(r.id, {
      id: r.id,
      user: r.userId,
      status: r.status,
      qty: r.quantity,
      holdUntilMs: r.expireAt.getTime() + holdGraceMs,
      idem: field,
      kind: 's',
      units: [],
      ids: [],
    });
  }
  return { live, idem };
}

/**
 * The attendee IDs of live orders go to their orders' records; those of live complimentary
 * orders (no record: their units are reserved ones) are returned, to be kept taken in Redis.
 */
async function attendeeIds(
  db: Db,
  sessionId: string,
  orders: Map<string, LiveOrder>,
): Promise<AttendeeClaim[]> {
  const compIds: AttendeeClaim[] = [];
  for (const r of await attendeeClaimsOf(db, sessionId)) {
    if (r.channel === 'comp') compIds.push(r);
    else orders.get(r.orderId)?.ids.push(r.idHash);
  }
  return compIds;
}

/** Seat values (field, value, ...) from the claims; each live order learns its seats. */
function seatValuesOf(seatClaims: SeatClaim[], orders: Map<string, LiveOrder>): string[] {
  const seatValues: string[] = [];
  for (const c of seatClaims) {
    // Held back by the organiser (comp/): never on public sale, whatever comp ticket it carries.
    if (c.orderId === RESERVED_ORDER_ID) {
      seatValues.push(c.seatId, seatValue.reserved());
      continue;
    }
    const o = orders.get(c.orderId);
    if (!o) continue; // a claim always belongs to a live order; ignore a stray one
    o.units.push(c.seatId);
    seatValues.push(
      c.seatId,
      o.status === ORDER_STATUS.PENDING ? seatValue.held(o.id, o.holdUntilMs) : seatValue.sold(o.id),
    );
  }
  return seatValues;
}

/** Taken slots per zone (live orders' and reserved ones); each live order learns its slots. */
function claimedSlotsOf(zoneClaims: ZoneClaim[], orders: Map<string, LiveOrder>): Map<string, Set<number>> {
  const claimedSlots = new Map<string, Set<number>>();
  for (const c of zoneClaims) {
    const o = orders.get(c.orderId);
    if (!o && c.orderId !== RESERVED_ORDER_ID) continue;
    if (o) {
      o.kind = `z${c.zoneId}`;
      o.units.push(String(c.slotNo));
    }
    const set = claimedSlots.get(c.zoneId) ?? new Set<number>();
    set.add(c.slotNo);
    claimedSlots.set(c.zoneId, set);
  }
  return claimedSlots;
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
  const seatClaims = await seatClaimsOf(db, sessionId);
  const zoneClaims = await zoneClaimsOf(db, sessionId);
  const compIds = await attendeeIds(db, sessionId, orders);

  const multi = redis.multi();
  multi.del(k.meta, k.seats, k.users, k.orders, k.pending, k.idem, k.zslots, k.ids);

  const seatValues = seatValuesOf(seatClaims, orders);
  for (let i = 0; i < seatValues.length; i += 2000) multi.hset(k.seats, ...seatValues.slice(i, i + 2000));

  const claimedSlots = claimedSlotsOf(zoneClaims, orders);
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
  for (const r of compIds) multi.hset(k.ids, r.idHash, r.orderId);
  for (const [field, value] of idem) multi.hset(k.idem, field, value);
  // Admission tokens used up by an order stay used up (MySQL keeps each use until it expires).
  for (const a of await liveAdmissionUses(db, sessionId, new Date(nowMs)))
    multi.set(k.admission(a.jti), a.orderId, 'PX', a.expiresAt.getTime() - nowMs);

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
