import type { CreateOrderInput } from '@showtix/shared-types';
import pino from 'pino';
import { closeDeps, createDeps } from '../src/wiring';
import { createTestEnv, type TestEnv } from './helpers/env';
import { createSession, createUsers, type SessionFixture } from './helpers/fixtures';

/**
 * The purchase's hot path (issue 14): a success is one Redis round trip (rates, cooldown and
 * hold in one script), and a refusal this instance already knows costs none (or one HGET when
 * the request carries an idempotency key), within the snapshot's staleness bound.
 */
const MAX_AGE_MS = 1_500;
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ REFUSAL_SNAPSHOT_MAX_AGE_MS: String(MAX_AGE_MS) });
});
afterAll(() => env.close());

/** Writes on the Redis connection while fn runs: one per round trip (no auto-pipelining). */
async function roundTrips<T>(fn: () => Promise<T>): Promise<{ n: number; result: T | Error }> {
  const stream = (env.deps.redis as unknown as { stream: { write: (...a: unknown[]) => boolean } }).stream;
  const spy = jest.spyOn(stream, 'write');
  try {
    const result = await fn().catch((err: Error) => err);
    return { n: spy.mock.calls.length, result };
  } finally {
    spy.mockRestore();
  }
}

const buy = (user: string, input: CreateOrderInput, key?: string) =>
  env.deps.orders.create(user, input, key, env.clock.now());

async function fresh(
  o: Parameters<typeof createSession>[1] = {},
): Promise<{ s: SessionFixture; u: string[] }> {
  const s = await createSession(env.deps, { seats: 10, ...o });
  const u = await createUsers(env.deps, 6);
  // Loads the scripts (EVALSHA falls back to EVAL once) so the counts below are the steady state.
  await buy(u[5]!, { sessionId: s.sessionId, seatIds: [s.seatIds[9]!] });
  return { s, u };
}

describe('one Redis round trip per purchase', () => {
  it('a successful purchase sends one command: rate counters, cooldown and hold together', async () => {
    const { s, u } = await fresh();
    const { n, result } = await roundTrips(() =>
      buy(u[0]!, { sessionId: s.sessionId, seatIds: [s.seatIds[0]!] }, 'k-1'),
    );
    expect(result).toMatchObject({ status: 'pending' });
    expect(n).toBe(1);
  });
});

describe('cheap refusals', () => {
  it('refuses a seat this instance saw held by another user without Redis, key or no key', async () => {
    const { s, u } = await fresh();
    await buy(u[0]!, { sessionId: s.sessionId, seatIds: [s.seatIds[0]!] });
    const input = { sessionId: s.sessionId, seatIds: [s.seatIds[1]!, s.seatIds[0]!] };
    const bare = await roundTrips(() => buy(u[1]!, input));
    expect(bare.result).toMatchObject({ code: 'SEAT_TAKEN', details: { seatId: s.seatIds[0] } });
    expect(bare.n).toBe(0);
    const keyed = await roundTrips(() => buy(u[1]!, input, 'k-2'));
    expect(keyed.result).toMatchObject({ code: 'SEAT_TAKEN' });
    expect(keyed.n).toBe(0);
    expect(await env.deps.redis.hget(env.deps.keys.session(s.sessionId).seats, s.seatIds[1]!)).toBeNull();
  });

  it('a retry with the key of a booked order still gets that order', async () => {
    const { s, u } = await fresh();
    const input = { sessionId: s.sessionId, seatIds: [s.seatIds[2]!] };
    const first = await buy(u[0]!, input, 'k-retry');
    expect(await buy(u[0]!, input, 'k-retry')).toMatchObject({ orderNo: first.orderNo });
  });

  it('a known refusal expires after the staleness bound and the script decides again', async () => {
    const { s, u } = await fresh();
    await buy(u[0]!, { sessionId: s.sessionId, seatIds: [s.seatIds[3]!] });
    const input = { sessionId: s.sessionId, seatIds: [s.seatIds[3]!] };
    expect((await roundTrips(() => buy(u[1]!, input))).n).toBe(0);
    await new Promise((r) => setTimeout(r, MAX_AGE_MS + 50));
    const after = await roundTrips(() => buy(u[1]!, input));
    expect(after.result).toMatchObject({ code: 'SEAT_TAKEN' });
    expect(after.n).toBe(1);
  });

  it('a refusal by the script teaches every taken seat of the request, not only the first', async () => {
    const { s, u } = await fresh();
    const [a, b, c] = [s.seatIds[5]!, s.seatIds[6]!, s.seatIds[7]!];
    await buy(u[0]!, { sessionId: s.sessionId, seatIds: [a, c] });
    await new Promise((r) => setTimeout(r, MAX_AGE_MS + 50)); // what the hold taught has expired
    const asked = await roundTrips(() => buy(u[1]!, { sessionId: s.sessionId, seatIds: [a, b, c] }));
    expect(asked.result).toMatchObject({ code: 'SEAT_TAKEN', details: { seatId: a } });
    expect(asked.n).toBe(1);
    // The script named c too: refused without Redis, as the seat of another user, key or no key.
    const known = await roundTrips(() => buy(u[2]!, { sessionId: s.sessionId, seatIds: [b, c] }, 'k-c'));
    expect(known.result).toMatchObject({ code: 'SEAT_TAKEN', details: { seatId: c } });
    expect(known.n).toBe(0);
  });

  it('an answer the script gave before a release is not learned after it', async () => {
    const { s, u } = await fresh();
    const seat = s.seatIds[8]!;
    const held = await buy(u[0]!, { sessionId: s.sessionId, seatIds: [seat] });
    await new Promise((r) => setTimeout(r, MAX_AGE_MS + 50)); // what the hold taught has expired
    // The script refuses the seat (held), then the hold is cancelled before the answer is learned.
    const inventory = env.deps.inventory;
    const real = inventory.lockSeats.bind(inventory);
    const spy = jest.spyOn(inventory, 'lockSeats').mockImplementationOnce(async (...a) => {
      const answer = await real(...a);
      await env.deps.orders.cancel(u[0]!, held.orderNo, env.clock.now());
      return answer;
    });
    try {
      await expect(buy(u[1]!, { sessionId: s.sessionId, seatIds: [seat] })).rejects.toMatchObject({
        code: 'SEAT_TAKEN',
      });
    } finally {
      spy.mockRestore();
    }
    // Before: the stale answer was kept and the free seat refused for the whole bound.
    await expect(buy(u[2]!, { sessionId: s.sessionId, seatIds: [seat] })).resolves.toMatchObject({
      status: 'pending',
    });
  });

  it('a seat released through this instance can be bought at once', async () => {
    const { s, u } = await fresh();
    const o = await buy(u[0]!, { sessionId: s.sessionId, seatIds: [s.seatIds[4]!] });
    await env.deps.orders.cancel(u[0]!, o.orderNo, env.clock.now());
    await expect(buy(u[1]!, { sessionId: s.sessionId, seatIds: [s.seatIds[4]!] })).resolves.toMatchObject({
      status: 'pending',
    });
  });

  it('learns a sold-out zone, the purchase limit and a closed sale from the script', async () => {
    const { s, u } = await fresh({ zones: [{ name: '站席', capacity: 2 }], purchaseLimit: 2 });
    const zone = { sessionId: s.sessionId, zoneId: s.zoneIds[0]!, quantity: 2 };
    await buy(u[0]!, zone);
    await expect(buy(u[1]!, { ...zone, quantity: 1 })).rejects.toMatchObject({ code: 'SOLD_OUT' });
    const soldOut = await roundTrips(() => buy(u[2]!, { ...zone, quantity: 1 }));
    expect(soldOut).toMatchObject({ n: 0, result: { code: 'SOLD_OUT' } });
    // With an idempotency key it might be a retry of an order holding units: one HGET tells.
    const keyedSoldOut = await roundTrips(() => buy(u[2]!, { ...zone, quantity: 1 }, 'k-zone'));
    expect(keyedSoldOut).toMatchObject({ n: 1, result: { code: 'SOLD_OUT' } });

    await expect(buy(u[0]!, { sessionId: s.sessionId, seatIds: [s.seatIds[0]!] })).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
    });
    const limited = await roundTrips(() => buy(u[0]!, { sessionId: s.sessionId, seatIds: [s.seatIds[1]!] }));
    expect(limited).toMatchObject({ n: 0, result: { code: 'LIMIT_EXCEEDED', details: { alreadyHeld: 2 } } });

    // Closed elsewhere (straight in Redis): the script says so once, then this instance knows.
    await env.deps.redis.hset(env.deps.keys.session(s.sessionId).meta, 'open', '0');
    await expect(buy(u[3]!, { sessionId: s.sessionId, seatIds: [s.seatIds[2]!] })).rejects.toMatchObject({
      code: 'NOT_ON_SALE',
    });
    const closed = await roundTrips(() => buy(u[3]!, { sessionId: s.sessionId, seatIds: [s.seatIds[2]!] }));
    expect(closed).toMatchObject({ n: 0, result: { code: 'NOT_ON_SALE' } });
    // Opened through this instance: known at once.
    await env.deps.inventory.setOpen(s.sessionId, true);
    await expect(buy(u[3]!, { sessionId: s.sessionId, seatIds: [s.seatIds[2]!] })).resolves.toMatchObject({
      status: 'pending',
    });
  });
});

describe('cheap refusals across instances', () => {
  it('a release on another instance reaches this one at once (pub/sub), not after the bound', async () => {
    // The other instance keeps what it learned for a minute: only the message can drop it.
    const other = await createDeps(
      { ...env.config, refusalSnapshotMaxAgeMs: 60_000 },
      { clock: env.clock, log: pino({ level: 'silent' }) },
    );
    try {
      const { s, u } = await fresh();
      const input = { sessionId: s.sessionId, seatIds: [s.seatIds[5]!] };
      const o = await other.orders.create(u[0]!, input, undefined, env.clock.now());
      await expect(other.orders.create(u[1]!, input, undefined, env.clock.now())).rejects.toMatchObject({
        code: 'SEAT_TAKEN',
      });
      await env.deps.orders.cancel(u[0]!, o.orderNo, env.clock.now());
      let bought;
      for (let i = 0; i < 40 && !bought; i++) {
        await new Promise((r) => setTimeout(r, 50));
        bought = await other.orders.create(u[1]!, input, undefined, env.clock.now()).catch(() => undefined);
      }
      expect(bought).toMatchObject({ status: 'pending' });
    } finally {
      await closeDeps(other);
    }
  });
});
