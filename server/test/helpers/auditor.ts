import type { RowDataPacket } from 'mysql2/promise';
import type { AppDeps } from '../../src/wiring';
import { loadSessionCatalog } from '../../src/catalog/repo';
import { seatValue } from '../../src/redis/records';

type Row = RowDataPacket & Record<string, any>;

/**
 * Rebuilds what must be true from MySQL (the record) and checks MySQL's own invariants and
 * Redis's agreement with it. Returns every violation found, empty when all hold.
 */
export async function audit(
  d: AppDeps,
  sessionId: string,
  nowMs: number,
  o: { checkRedis?: boolean } = {},
): Promise<string[]> {
  const bad: string[] = [];
  const cat = (await loadSessionCatalog(d.db, sessionId))!;
  const [items] = await d.db.query<Row[]>(
    `SELECT i.order_id, i.seat_id, i.zone_id, i.slot_no, o.user_id, o.status, o.quantity
       FROM order_items i JOIN orders o ON o.id = i.order_id
      WHERE o.session_id = ? AND o.status IN (1, 2, 3)
        -- an item whose per-ticket refund succeeded is no longer live (its seat is back on sale)
        AND NOT EXISTS (SELECT 1 FROM refund_items ri JOIN refunds r ON r.id = ri.refund_id
                         WHERE ri.live_item_id = i.id AND r.status = 2)
        -- nor is an item whose ticket was exchanged (改签: its seat went back, the holder moved)
        AND NOT EXISTS (SELECT 1 FROM tickets t WHERE t.order_item_id = i.id AND t.status = 6)`,
    [sessionId],
  );
  const seatOwner = new Map<string, string>();
  const zoneUnits = new Map<string, Set<number>>();
  const userUnits = new Map<string, number>();
  const orderStatus = new Map<string, number>();
  for (const it of items) {
    orderStatus.set(it.order_id, it.status);
    userUnits.set(it.user_id, (userUnits.get(it.user_id) ?? 0) + 1);
    if (it.seat_id) {
      if (seatOwner.has(it.seat_id))
        bad.push(`seat ${it.seat_id} in live orders ${seatOwner.get(it.seat_id)} and ${it.order_id}`);
      seatOwner.set(it.seat_id, it.order_id);
    } else {
      const set = zoneUnits.get(it.zone_id) ?? new Set<number>();
      if (set.has(it.slot_no)) bad.push(`zone ${it.zone_id} slot ${it.slot_no} sold twice`);
      set.add(it.slot_no);
      zoneUnits.set(it.zone_id, set);
    }
  }
  for (const z of cat.zones.values()) {
    const n = zoneUnits.get(z.id)?.size ?? 0;
    if (n > z.capacity) bad.push(`zone ${z.id}: ${n} live units > capacity ${z.capacity}`);
  }
  for (const [user, n] of userUnits)
    if (n > cat.purchaseLimit) bad.push(`user ${user} holds ${n} > limit ${cat.purchaseLimit}`);

  const [claims] = await d.db.query<Row[]>('SELECT seat_id, order_id FROM seat_claims WHERE session_id = ?', [
    sessionId,
  ]);
  const claimMap = new Map(claims.map((c) => [String(c.seat_id), String(c.order_id)]));
  for (const [seat, orderId] of seatOwner)
    if (claimMap.get(seat) !== orderId) bad.push(`seat ${seat}: live item of ${orderId} has no claim`);
  for (const [seat, orderId] of claimMap)
    if (seatOwner.get(seat) !== orderId) bad.push(`seat ${seat}: claim by ${orderId} without a live item`);
  const [zclaims] = await d.db.query<Row[]>('SELECT COUNT(*) n FROM zone_claims WHERE session_id = ?', [
    sessionId,
  ]);
  const liveZone = [...zoneUnits.values()].reduce((a, s) => a + s.size, 0);
  if (Number(zclaims[0]!.n) !== liveZone)
    bad.push(`zone claims ${zclaims[0]!.n} != live zone units ${liveZone}`);
  const [quota] = await d.db.query<Row[]>(
    'SELECT user_id, used FROM user_session_quota WHERE session_id = ? AND used <> 0',
    [sessionId],
  );
  for (const q of quota)
    if (userUnits.get(String(q.user_id)) !== q.used)
      bad.push(`quota of user ${q.user_id} is ${q.used}, live ${userUnits.get(String(q.user_id)) ?? 0}`);

  if (o.checkRedis !== false)
    bad.push(
      ...(await auditRedis(d, sessionId, nowMs, { cat, seatOwner, orderStatus, zoneUnits, userUnits })),
    );
  return bad;
}

interface Expected {
  cat: NonNullable<Awaited<ReturnType<typeof loadSessionCatalog>>>;
  seatOwner: Map<string, string>;
  orderStatus: Map<string, number>;
  zoneUnits: Map<string, Set<number>>;
  userUnits: Map<string, number>;
}

/** Redis must say exactly what MySQL says (reconciliation difference 0). */
async function auditRedis(d: AppDeps, sessionId: string, nowMs: number, e: Expected): Promise<string[]> {
  const bad: string[] = [];
  const k = d.keys.session(sessionId);
  const seats = await d.redis.hgetall(k.seats);
  for (const seatId of e.cat.seats.keys()) {
    const v = seats[seatId];
    const owner = e.seatOwner.get(seatId);
    const state = v === undefined ? 'free' : seatValue.stateAt(v, nowMs);
    if (!owner) {
      if (state === 'sold' || state === 'held')
        bad.push(`redis: seat ${seatId} ${state} (${v}) but free in MySQL`);
      continue;
    }
    const expectSold = e.orderStatus.get(owner) !== 1;
    const want = expectSold ? `S|${owner}` : `H|${owner}|`;
    if (!v || !v.startsWith(want)) bad.push(`redis: seat ${seatId} is ${v ?? 'free'}, MySQL says ${want}`);
  }
  for (const z of e.cat.zones.values()) {
    const free = await d.redis.zcount(k.zslots, z.id, z.id);
    const live = e.zoneUnits.get(z.id)?.size ?? 0;
    if (free + live !== z.capacity)
      bad.push(`redis: zone ${z.id} free ${free} + live ${live} != ${z.capacity}`);
  }
  const users = await d.redis.hgetall(k.users);
  for (const [user, n] of e.userUnits)
    if (Number(users[user] ?? 0) !== n)
      bad.push(`redis: user ${user} counted ${users[user] ?? 0}, live ${n}`);
  for (const [user, n] of Object.entries(users))
    if (!e.userUnits.has(user) && Number(n) !== 0) bad.push(`redis: user ${user} counted ${n}, live 0`);
  const claimed = e.seatOwner.size + [...e.zoneUnits.values()].reduce((a, s) => a + s.size, 0);
  const avail = Number(await d.redis.hget(k.meta, 'avail'));
  if (avail !== e.cat.capacity - claimed)
    bad.push(`redis: avail ${avail} != capacity ${e.cat.capacity} - claimed ${claimed}`);
  return bad;
}
