import type { RowDataPacket } from 'mysql2/promise';
import type { CreateOrderInput, Order } from '@showtix/shared-types';
import type { AppDeps } from '../../src/wiring';
import { insertSession, insertShow, insertVenue, seatIdsOfVenue } from '../../src/catalog/admin-repo';
import { blockSeats } from '../../src/catalog/layout';
import { openSale } from '../../src/jobs/session-lifecycle';
import { loadSessionCatalog } from '../../src/catalog/repo';
import type { TakeResult } from '../../src/inventory/types';
import type { TestEnv } from './env';

export interface SessionFixture {
  sessionId: string;
  showId: string;
  seatIds: string[];
  zoneIds: string[];
  tierIds: string[];
}

export interface SessionOptions {
  seats?: number;
  zones?: { name: string; capacity: number }[];
  purchaseLimit?: number;
  holdMinutes?: number;
  open?: boolean;
  realName?: boolean;
  startsAt?: Date;
  /** Two tiers: the first `vip` seats cost 1,880 yuan, the rest 680 yuan. */
  vip?: number;
  refundRules?: { hoursBeforeStart: number; feePercent: number }[];
}

let venueCounter = 0;

/** A venue, show and session with `seats` seats in rows of 20 and the given zones; opened by default. */
export async function createSession(d: AppDeps, o: SessionOptions = {}): Promise<SessionFixture> {
  const n = o.seats ?? 0;
  const rows = Math.ceil(n / 20);
  const seats = blockSeats({ section: 'A', rows, seatsPerRow: 20, originX: 0, originY: 0 }).slice(0, n);
  const venueId = await insertVenue(d.db, {
    name: `测试场馆${++venueCounter}`,
    city: '上海',
    seats,
    zones: o.zones,
  });
  const showId = await insertShow(d.db, {
    title: `测试演出${venueCounter}`,
    venueId,
    refundRules: o.refundRules ?? [],
  });
  const seatRows = await seatIdsOfVenue(d.db, venueId);
  const vip = seatRows.slice(0, o.vip ?? 0).map((s) => s.id);
  const now = d.clock.now();
  const sessionId = await insertSession(d.db, {
    showId,
    startsAt: o.startsAt ?? new Date(now.getTime() + 30 * 86_400_000),
    saleStartsAt: o.open === false ? new Date(now.getTime() + 86_400_000) : now,
    purchaseLimit: o.purchaseLimit ?? 4,
    holdMinutes: o.holdMinutes ?? 15,
    realName: o.realName ?? false,
    tiers: [
      ...(vip.length ? [{ name: 'VIP', priceFen: 188_000, seatIds: vip }] : []),
      ...(n > vip.length ? [{ name: '看台', priceFen: 68_000 }] : []),
      ...(o.zones ?? []).map((z) => ({ name: z.name, priceFen: 48_000, zoneName: z.name })),
    ],
  });
  if (o.open !== false) await openSale(d, sessionId, now);
  const cat = (await loadSessionCatalog(d.db, sessionId))!;
  return {
    sessionId,
    showId,
    seatIds: [...cat.seats.keys()],
    zoneIds: [...cat.zones.keys()],
    tierIds: cat.tiers.map((t) => t.id),
  };
}

/** n users in one INSERT; returns their ids in order. */
export async function createUsers(d: AppDeps, n: number, tag = 'u'): Promise<string[]> {
  const stamp = `${tag}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await d.db.query('INSERT INTO users (openid) VALUES ?', [
    Array.from({ length: n }, (_, i) => [`${stamp}_${i}`]),
  ]);
  const [rows] = await d.db.query<RowDataPacket[]>('SELECT id FROM users WHERE openid LIKE ? ORDER BY id', [
    `${stamp}\\_%`,
  ]);
  return rows.map((r) => String(r.id));
}

/** Makes the user gate staff (检票) of the show, as a redeemed invite would (again: no change). */
export async function assignStaff(d: Pick<AppDeps, 'db'>, userId: string, showId: string): Promise<void> {
  await d.db.query(
    "INSERT IGNORE INTO staff_assignments (user_id, show_id, created_by, created_at) VALUES (?, ?, 'test', NOW(3))",
    [userId, showId],
  );
}

/** A purchase straight through the service, now on the test clock, without an idempotency key. */
export function purchase(env: TestEnv, userId: string, input: CreateOrderInput): Promise<Order> {
  return env.deps.orders.create(userId, input, undefined, env.clock.now());
}

/**
 * A one-minute seat hold in Redis with no order in MySQL: what a server that died between its
 * Redis hold and its MySQL write leaves behind.
 */
export function redisOnlyHold(
  env: TestEnv,
  h: { sessionId: string; orderId: string; userId: string; seatIds: string[]; idemField?: string },
): Promise<TakeResult> {
  const now = env.clock.now().getTime();
  return env.deps.inventory.lockSeats(
    {
      sessionId: h.sessionId,
      orderId: h.orderId,
      userId: h.userId,
      nowMs: now,
      holdUntilMs: now + 60_000,
      limit: 4,
      idemField: h.idemField ?? '',
      requestHash: 'x',
    },
    h.seatIds,
  );
}
