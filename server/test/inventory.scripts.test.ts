import calculateSlot from 'cluster-key-slot';
import { RC } from '../src/redis/codes';
import { takeArgs } from '../src/inventory/service';
import type { TakeRequest } from '../src/inventory/types';
import { scriptKeys, type SessionKeys } from '../src/redis/keys';
import type { ScriptedRedis } from '../src/redis/scripts';
import { createTestEnv, type TestEnv } from './helpers/env';

/**
 * Every Lua script, success and refusal, called directly on a real Redis with hand-made state.
 * Session "1": seats 101..105, zone 7 with slots 1..5, avail 10, open.
 */
let env: TestEnv;
let redis: ScriptedRedis;
let sessionId: string;
let k: SessionKeys;
const NOW = 1_000_000;
const HOLD = NOW + 60_000;

beforeAll(async () => {
  env = await createTestEnv();
  redis = env.deps.redis;
});
afterAll(() => env.close());

beforeEach(async () => {
  sessionId = `s${Math.random().toString(36).slice(2)}`;
  k = env.deps.keys.session(sessionId);
  await redis.hset(k.meta, 'open', '1', 'avail', 10);
  for (let slot = 1; slot <= 5; slot++) await redis.zadd(k.zslots, 7, `7:${slot}`);
});

interface Opts {
  now?: number;
  limit?: number;
  idem?: string;
  hash?: string;
  /** admission token id (and TTL) used up by the order */
  jti?: string;
  ids?: string[];
}
const req = (orderId: string, user: string, o: Opts): TakeRequest => ({
  sessionId,
  orderId,
  userId: user,
  nowMs: o.now ?? NOW,
  holdUntilMs: HOLD,
  limit: o.limit ?? 4,
  idemField: o.idem ?? '',
  requestHash: o.hash ?? 'h',
  idHashes: o.ids ?? [],
  ...(o.jti ? { admission: { jti: o.jti, ttlMs: 60_000 } } : {}),
});
const lock = (orderId: string, user: string, seats: string[], o: Opts = {}) =>
  redis.lockSeats(...scriptKeys.take(k, k.seats, o.jti ?? ''), ...takeArgs(req(orderId, user, o)), ...seats);
const take = (orderId: string, user: string, qty: number, o: Opts = {}) =>
  redis.takeZone(...scriptKeys.take(k, k.zslots, o.jti ?? ''), ...takeArgs(req(orderId, user, o)), '7', qty);
const confirm = (orderId: string, mode = 'owned') =>
  redis.confirmOrder(...scriptKeys.confirmOrder(k), orderId, mode);
const release = (orderId: string, forget = false, turn = '') =>
  redis.releaseOrder(...scriptKeys.releaseOrder(k, turn), orderId, forget ? '1' : '0', turn ? '1' : '0');
const retake = (
  orderId: string,
  user: string,
  kind: string,
  qty: number,
  ids: string[],
  seats: string[] = [],
) =>
  redis.retakeOrder(
    ...scriptKeys.retakeOrder(k),
    orderId,
    user,
    NOW,
    HOLD,
    kind,
    qty,
    ids.length,
    ...ids,
    ...seats,
  );

describe('key layout', () => {
  it('puts every key of a session in one Redis Cluster slot', () => {
    const s = env.deps.keys.session('123');
    const names = [
      s.meta,
      s.seats,
      s.users,
      s.orders,
      s.pending,
      s.idem,
      s.zslots,
      s.rebuildLock,
      s.ids,
      s.admission('abc'),
      s.cooldown('42'),
      s.rate('u', '42'),
      s.rate('d', 'device-1'),
      s.rate('i', '::1'),
      s.rate('i', undefined),
      ...Object.values(s.queue),
    ];
    expect(new Set(names.map((key) => calculateSlot(key))).size).toBe(1);
  });
});

describe('lockSeats', () => {
  it('holds all seats with owner and expiry, counts the user, lowers avail', async () => {
    expect(await lock('o1', 'u1', ['101', '102'])).toEqual([RC.LOCKED, 8]);
    expect(await redis.hget(k.seats, '101')).toBe(`H|o1|${HOLD}`);
    expect(await redis.hget(k.users, 'u1')).toBe('2');
    expect(await redis.zscore(k.pending, 'o1')).toBe(String(HOLD));
  });

  it('refuses the whole order when any seat is held, and changes nothing', async () => {
    await lock('o1', 'u1', ['102']);
    expect(await lock('o2', 'u2', ['101', '102'])).toEqual([RC.SEAT_TAKEN, '102', 'u1']);
    expect(await redis.hexists(k.seats, '101')).toBe(0);
    expect(await redis.hget(k.users, 'u2')).toBeNull();
    expect(await redis.hget(k.meta, 'avail')).toBe('9');
  });

  it('lets a seat whose hold expired be taken over without counting it twice', async () => {
    await lock('o1', 'u1', ['101']);
    expect(await lock('o2', 'u2', ['101'], { now: HOLD + 1 })).toEqual([RC.LOCKED, 9]);
    expect(await redis.hget(k.seats, '101')).toMatch(/^H\|o2\|/);
  });

  it('refuses sold seats; SOLD_OUT when nothing is left in the session', async () => {
    await lock('o1', 'u1', ['101']);
    await confirm('o1');
    expect(await lock('o2', 'u2', ['101'], { now: HOLD + 1 })).toEqual([RC.SEAT_TAKEN, '101', 'u1']);
    await redis.hset(k.meta, 'avail', 0);
    expect(await lock('o3', 'u2', ['101'])).toEqual([RC.SOLD_OUT, '101', 'u1']);
  });

  it('checks and counts the purchase limit in the same step', async () => {
    expect((await lock('o1', 'u1', ['101', '102', '103']))[0]).toBe(RC.LOCKED);
    expect(await lock('o2', 'u1', ['104', '105'])).toEqual([RC.LIMIT_EXCEEDED, 3]);
    expect((await lock('o3', 'u1', ['104']))[0]).toBe(RC.LOCKED);
  });

  it('is idempotent: the same order or the same key with the same request changes nothing twice', async () => {
    await lock('o1', 'u1', ['101'], { idem: 'u1:k', hash: 'A' });
    expect(await lock('o1', 'u1', ['101'])).toEqual([RC.REPLAY, 'o1']);
    expect(await lock('o9', 'u1', ['101'], { idem: 'u1:k', hash: 'A' })).toEqual([RC.REPLAY, 'o1']);
    expect(await lock('o9', 'u1', ['102'], { idem: 'u1:k', hash: 'B' })).toEqual([RC.IDEMPOTENCY_CONFLICT]);
    expect(await redis.hget(k.users, 'u1')).toBe('1');
  });

  it('refuses when the sale is closed, and asks for a rebuild when the session is not loaded', async () => {
    await redis.hset(k.meta, 'open', '0');
    expect(await lock('o1', 'u1', ['101'])).toEqual([RC.NOT_ON_SALE]);
    await redis.del(k.meta);
    expect(await lock('o1', 'u1', ['101'])).toEqual([RC.NOT_READY]);
  });
});

describe('request rates and the cooldown in the take scripts (one round trip)', () => {
  const rated = (o: { user?: number; device?: number }) => ({
    ...(o.user ? { user: { subject: 'u1', points: o.user, windowMs: 10_000 } } : {}),
    ...(o.device ? { device: { subject: 'dev-1', points: o.device, windowMs: 20_000 } } : {}),
  });
  const lockRated = (orderId: string, seats: string[], rates: ReturnType<typeof rated>, cooldown = false) =>
    redis.lockSeats(
      ...scriptKeys.take(k, k.seats, '', cooldown ? 'u1' : '-', {
        u: rates.user?.subject,
        d: rates.device?.subject,
      }),
      ...takeArgs({ ...req(orderId, 'u1', { limit: 10 }), rates }),
      ...seats,
    );

  it('counts every request per user and device in the session; the longest wait answers', async () => {
    const rates = rated({ user: 2, device: 5 });
    expect((await lockRated('o1', ['101'], rates))[0]).toBe(RC.LOCKED);
    // A refusal counts like a success, as rate-limiter-flexible counted it.
    expect((await lockRated('o2', ['101'], rates))[0]).toBe(RC.SEAT_TAKEN);
    const [code, waitMs] = await lockRated('o3', ['102'], rates);
    expect(code).toBe(RC.RATE_LIMITED);
    expect(Number(waitMs)).toBeGreaterThan(9_000);
    expect(Number(waitMs)).toBeLessThanOrEqual(10_000);
    expect(await redis.hget(k.seats, '102')).toBeNull();
    expect(await redis.get(k.rate('u', 'u1'))).toBe('3');
    expect(await redis.get(k.rate('d', 'dev-1'))).toBe('3');
    expect(await redis.pttl(k.rate('d', 'dev-1'))).toBeGreaterThan(19_000);
  });

  it('counts nothing for a dimension that is off, and nothing before a rebuild', async () => {
    expect((await lockRated('o1', ['101'], {}))[0]).toBe(RC.LOCKED);
    expect(await redis.exists(k.rate('u', 'u1'), k.rate('i', undefined))).toBe(0);
    await redis.del(k.meta);
    expect(await lockRated('o2', ['102'], rated({ user: 1 }))).toEqual([RC.NOT_READY]);
    expect(await redis.exists(k.rate('u', 'u1'))).toBe(0);
  });

  it("refuses a user in cooldown in this session with the time left, and only that user's", async () => {
    await redis.set(k.cooldown('u1'), '1', 'PX', 60_000);
    const [code, waitMs] = await lockRated('o1', ['101'], {}, true);
    expect(code).toBe(RC.HOLD_COOLDOWN);
    expect(Number(waitMs)).toBeGreaterThan(59_000);
    expect(await redis.hget(k.seats, '101')).toBeNull();
    expect((await lock('o2', 'u2', ['101']))[0]).toBe(RC.LOCKED);
  });
});

describe('admission tokens and real-name IDs', () => {
  it('uses an admission token up with the order that bought, not with a refused one', async () => {
    await lock('o1', 'u1', ['101']);
    expect(await lock('o2', 'u2', ['101'], { jti: 't2' })).toEqual([RC.SEAT_TAKEN, '101', 'u1']);
    expect((await lock('o3', 'u2', ['102'], { jti: 't2' }))[0]).toBe(RC.LOCKED); // the refusal did not use it
    expect(await redis.pttl(k.admission('t2'))).toBeGreaterThan(0);
    expect(await lock('o4', 'u2', ['103'], { jti: 't2' })).toEqual([RC.ADMISSION_USED]);
  });

  it('a cancelled order can give its admission token back; a released order of another keeps it', async () => {
    await lock('o1', 'u1', ['101'], { jti: 't1' });
    await release('o1', false, 't1');
    expect(await redis.exists(k.admission('t1'))).toBe(0);
    expect((await lock('o2', 'u1', ['102'], { jti: 't1' }))[0]).toBe(RC.LOCKED);
    await release('o9', false, 't1'); // another order names the token: untouched
    expect(await redis.get(k.admission('t1'))).toBe('o2');
  });

  it('one ID, one ticket per session: a second order with the same ID is refused until the first is released', async () => {
    expect((await lock('o1', 'u1', ['101'], { ids: ['idA'] }))[0]).toBe(RC.LOCKED);
    expect(await take('o2', 'u2', 1, { ids: ['idA'] })).toEqual([RC.ID_TAKEN, 'idA']);
    expect(await redis.zcount(k.zslots, 7, 7)).toBe(5);
    await release('o1');
    expect((await take('o3', 'u2', 1, { ids: ['idA'] }))[0]).toBe(RC.LOCKED);
  });

  it('retakes a released order for a late payment only while its seats and IDs are free', async () => {
    await lock('o1', 'u1', ['101', '102'], { ids: ['idA', 'idB'] });
    await release('o1');
    await lock('o2', 'u2', ['103'], { ids: ['idB'] });
    expect(await retake('o1', 'u1', 's', 2, ['idA', 'idB'], ['101', '102'])).toEqual([RC.ID_TAKEN, 'idB']);
    await release('o2');
    expect(await retake('o1', 'u1', 's', 2, ['idA', 'idB'], ['101', '102'])).toEqual([RC.LOCKED, 8]);
    expect(await retake('o1', 'u1', 's', 2, ['idA', 'idB'], ['101', '102'])).toEqual([RC.ALREADY]);
    expect(await redis.hget(k.ids, 'idB')).toBe('o1');
  });
});

describe('takeZone', () => {
  it('takes numbered units and lowers stock and avail', async () => {
    const r = await take('o1', 'u1', 2);
    expect(r.slice(0, 2)).toEqual([RC.LOCKED, 8]);
    expect(r.slice(2).map(Number).sort()).toEqual([1, 2]);
    expect(await redis.zcount(k.zslots, 7, 7)).toBe(3);
  });

  it('never goes below zero: refuses more than is left and takes nothing', async () => {
    await take('o1', 'u1', 4);
    expect(await take('o2', 'u2', 2)).toEqual([RC.SOLD_OUT, 1]);
    expect(await redis.zcount(k.zslots, 7, 7)).toBe(1);
    expect((await take('o3', 'u2', 1))[0]).toBe(RC.LOCKED);
    expect(await take('o4', 'u3', 1)).toEqual([RC.SOLD_OUT, 0]);
  });

  it('counts the limit across seats and zones of the session', async () => {
    await lock('o1', 'u1', ['101', '102', '103']);
    expect(await take('o2', 'u1', 2)).toEqual([RC.LIMIT_EXCEEDED, 3]);
  });
});

describe('confirmOrder', () => {
  it('marks owned holds sold, once', async () => {
    await lock('o1', 'u1', ['101', '102']);
    expect(await confirm('o1')).toEqual([RC.CONFIRMED]);
    expect(await redis.hget(k.seats, '101')).toBe('S|o1');
    expect(await redis.zscore(k.pending, 'o1')).toBeNull();
    expect(await confirm('o1')).toEqual([RC.ALREADY]);
  });

  it('only if still owned: a seat taken over after expiry is not confirmed in owned mode', async () => {
    await lock('o1', 'u1', ['101', '102']);
    await lock('o2', 'u2', ['102'], { now: HOLD + 1 });
    expect(await confirm('o1')).toEqual([RC.NOT_OWNER, '102']);
    expect(await redis.hget(k.seats, '101')).toMatch(/^H\|o1/);
  });

  it('record mode takes back a seat another unpaid hold grabbed, but never a sold one', async () => {
    await lock('o1', 'u1', ['101', '102']);
    await lock('o2', 'u2', ['102'], { now: HOLD + 1 });
    expect(await confirm('o1', 'record')).toEqual([RC.CONFIRMED]);
    expect(await redis.hget(k.seats, '102')).toBe('S|o1');
    await lock('o3', 'u3', ['103']);
    await lock('o4', 'u4', ['103'], { now: HOLD + 1 });
    await confirm('o4');
    expect(await confirm('o3', 'record')).toEqual([RC.CONFLICT, '103']);
  });

  it('knows released and unknown orders', async () => {
    await lock('o1', 'u1', ['101']);
    await release('o1');
    expect(await confirm('o1')).toEqual([RC.RELEASED]);
    expect(await confirm('nope')).toEqual([RC.UNKNOWN_ORDER]);
  });
});

describe('releaseOrder', () => {
  it('frees only seats the order still owns and gives the limit back, once', async () => {
    await lock('o1', 'u1', ['101', '102']);
    await lock('o2', 'u2', ['102'], { now: HOLD + 1 });
    expect(await release('o1')).toEqual([RC.RELEASED, 9, 1]);
    expect(await redis.hget(k.seats, '102')).toMatch(/^H\|o2/);
    expect(await redis.hget(k.users, 'u1')).toBeNull();
    expect(await release('o1')).toEqual([RC.ALREADY]);
    expect(await redis.hget(k.meta, 'avail')).toBe('9');
  });

  it('returns zone units to stock', async () => {
    await take('o1', 'u1', 3);
    expect(await release('o1')).toEqual([RC.RELEASED, 10, 3]);
    expect(await redis.zcount(k.zslots, 7, 7)).toBe(5);
  });

  it('frees sold seats too (refunds) and forgets a never-written order with its key', async () => {
    await lock('o1', 'u1', ['101'], { idem: 'u1:k' });
    await confirm('o1');
    expect((await release('o1'))[0]).toBe(RC.RELEASED);
    await lock('o2', 'u1', ['102'], { idem: 'u1:k2' });
    await release('o2', true);
    expect(await redis.hexists(k.orders, 'o2')).toBe(0);
    expect(await redis.hexists(k.idem, 'u1:k2')).toBe(0);
    expect((await lock('o3', 'u1', ['102'], { idem: 'u1:k2' }))[0]).toBe(RC.LOCKED);
  });

  it('a hold that took over an expired hold and was refused by MySQL gives the seat back to it, avail untouched', async () => {
    await lock('o1', 'u1', ['101', '102']); // avail 8
    expect(await lock('o2', 'u2', ['101', '103'], { now: HOLD + 1 })).toEqual([RC.LOCKED, 7]); // 103 fresh
    // MySQL still has o1's claim on 101, so o2's insert fails and the server forgets o2
    expect(await release('o2', true)).toEqual([RC.RELEASED, 8, 1]);
    expect(await redis.hget(k.seats, '101')).toBe(`H|o1|${HOLD}`);
    expect(await redis.hget(k.seats, '103')).toBeNull();
    // o1 expires in MySQL and is released: now both its seats are free, counted once each
    expect(await release('o1')).toEqual([RC.RELEASED, 10, 2]);
    expect(await redis.hlen(k.seats)).toBe(0);
  });

  it('a taken-over seat whose first order is gone is simply freed', async () => {
    await lock('o1', 'u1', ['101']); // avail 9
    await lock('o2', 'u2', ['101'], { now: HOLD + 1 });
    expect(await release('o1')).toEqual([RC.RELEASED, 9, 0]); // 101 is o2's now
    expect(await release('o2', true)).toEqual([RC.RELEASED, 10, 1]);
    expect(await redis.hget(k.seats, '101')).toBeNull();
  });

  it('is a no-op for an unknown order', async () => {
    expect(await release('nope')).toEqual([RC.UNKNOWN_ORDER]);
  });
});
