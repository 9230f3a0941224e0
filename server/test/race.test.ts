import type { RowDataPacket } from 'mysql2/promise';
import { IdGenerator, orderNoFor } from '../src/orders/ids';
import type { NewOrder } from '../src/orders/types';
import { WriteError } from '../src/orders/writer';
import { createTestEnv, withTestEnv, type TestEnv } from './helpers/env';
import { createSession, createUsers, purchase } from './helpers/fixtures';

/**
 * pretix style: first show the double sale happens with a guard off, then that the guard
 * stops it. Two guards: the Redis script (atomic check-and-hold) and the MySQL claim key.
 */
const BUYERS = 50;
const ids = IdGenerator.fixed(999);

function orderFor(userId: string, sessionId: string, seatId: string, now: Date): NewOrder {
  const id = ids.next(now.getTime());
  return {
    id,
    orderNo: orderNoFor(id, now),
    userId,
    sessionId,
    amountFen: 68_000,
    quantity: 1,
    purchaseLimit: 4,
    idempotencyKey: null,
    requestHash: 'h',
    expireAt: new Date(now.getTime() + 900_000),
    createdAt: now,
    items: [{ seatId, tierId: '1', priceFen: 68_000 }],
    showId: '1',
    showLimit: null,
    attendees: [],
    admissionJti: null,
    admissionUntil: null,
    contactPhone: null,
  };
}

async function liveOrdersForSeat(env: TestEnv, seatId: string): Promise<number> {
  const [rows] = await env.deps.db.query<RowDataPacket[]>(
    `SELECT COUNT(*) n FROM order_items i JOIN orders o ON o.id = i.order_id WHERE i.seat_id = ? AND o.status IN (1,2,3)`,
    [seatId],
  );
  return Number(rows[0]!.n);
}

describe('Redis guard: the check and the hold must be one atomic step', () => {
  let env: TestEnv;
  beforeAll(async () => (env = await createTestEnv()));
  afterAll(() => env.close());

  it('guard off: a check-then-set from the app (the seed sketch) lets many buyers hold one seat', async () => {
    const key = env.deps.keys.session('naive').seats;
    const naive = async (buyer: number) => {
      if (await env.deps.redis.hget(key, '1')) return false; // check ...
      await env.deps.redis.hset(key, '1', `H|${buyer}`); // ... then set: another buyer slips in between
      return true;
    };
    const winners = (await Promise.all(Array.from({ length: BUYERS }, (_, i) => naive(i)))).filter(Boolean);
    expect(winners.length).toBeGreaterThan(1);
  });

  it("guard off: the seed's Lua (SMEMBERS then index by seat) never finds a conflict", async () => {
    const key = env.deps.keys.session('seed').seats;
    const seedLua = `local locked = redis.call('SMEMBERS', KEYS[1])
      for i, s in ipairs(ARGV) do if locked[s] then return s end end
      for i, s in ipairs(ARGV) do redis.call('SADD', KEYS[1], s) end
      return 'OK'`;
    const replies = await Promise.all(
      Array.from({ length: BUYERS }, () => env.deps.redis.eval(seedLua, 1, key, '1')),
    );
    expect(replies.filter((r) => r === 'OK')).toHaveLength(BUYERS);
  });

  it('guard on: lockSeats lets exactly one of the buyers hold the seat', async () => {
    const s = await createSession(env.deps, { seats: 1 });
    const users = await createUsers(env.deps, BUYERS);
    const now = env.clock.now();
    const results = await Promise.allSettled(
      users.map((u) =>
        env.deps.orders.create(u, { sessionId: s.sessionId, seatIds: [s.seatIds[0]!] }, undefined, now),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await liveOrdersForSeat(env, s.seatIds[0]!)).toBe(1);
  });
});

describe('MySQL guard: the claim key refuses a second live sale even when Redis is wrong', () => {
  it('guard off: without the unique claim key, orders that bypass Redis all commit', () =>
    withTestEnv(async (env) => {
      await env.deps.db.query(
        'ALTER TABLE seat_claims DROP PRIMARY KEY, ADD KEY k_no_guard (session_id, seat_id)',
      );
      const s = await createSession(env.deps, { seats: 1 });
      const users = await createUsers(env.deps, BUYERS);
      const now = env.clock.now();
      await Promise.all(
        users.map((u) => env.deps.writer.write(orderFor(u, s.sessionId, s.seatIds[0]!, now))),
      );
      expect(await liveOrdersForSeat(env, s.seatIds[0]!)).toBe(BUYERS);
    }));

  it('guard on: exactly one of the concurrent writes commits, the rest are refused as seat_taken', () =>
    withTestEnv(async (env) => {
      const s = await createSession(env.deps, { seats: 1 });
      const users = await createUsers(env.deps, BUYERS);
      const now = env.clock.now();
      const results = await Promise.allSettled(
        users.map((u) => env.deps.writer.write(orderFor(u, s.sessionId, s.seatIds[0]!, now))),
      );
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(results.length - refused.length).toBe(1);
      for (const r of refused) expect((r.reason as WriteError).reason).toBe('seat_taken');
      expect(await liveOrdersForSeat(env, s.seatIds[0]!)).toBe(1);
    }));

  it('a holder that pauses past its hold expiry is refused when it resumes (the key is the fencing token)', () =>
    withTestEnv(async (env) => {
      const s = await createSession(env.deps, { seats: 1, holdMinutes: 1 });
      const [slow, fast] = await createUsers(env.deps, 2);
      const seat = s.seatIds[0]!;
      const t0 = env.clock.now();
      const stale = orderFor(slow!, s.sessionId, seat, t0);
      const take = {
        sessionId: s.sessionId,
        userId: slow!,
        nowMs: t0.getTime(),
        limit: 4,
        idemField: '',
        requestHash: 'h',
      };
      await env.deps.inventory.lockSeats({ ...take, orderId: stale.id, holdUntilMs: t0.getTime() + 60_000 }, [
        seat,
      ]);
      // ... the slow buyer stalls; its hold expires; the fast buyer takes the seat and commits.
      env.clock.advance(10 * 60_000);
      await purchase(env, fast!, { sessionId: s.sessionId, seatIds: [seat] });
      await expect(env.deps.writer.write(stale)).rejects.toMatchObject({ reason: 'seat_taken' });
      expect(await liveOrdersForSeat(env, seat)).toBe(1);
    }));

  it('a batch with one bad order commits all the others and refuses only that one', () =>
    withTestEnv(async (env) => {
      const s = await createSession(env.deps, { seats: 60 });
      const users = await createUsers(env.deps, 60);
      const now = env.clock.now();
      // Redis is wrong about seat 0: MySQL already sold it.
      await env.deps.writer.write(orderFor(users[0]!, s.sessionId, s.seatIds[0]!, now));
      const results = await Promise.allSettled(
        users
          .slice(1)
          .map((u, i) =>
            env.deps.writer.write(orderFor(u, s.sessionId, s.seatIds[i === 20 ? 0 : i + 1]!, now)),
          ),
      );
      const refused = results.flatMap((r, i) => (r.status === 'rejected' ? [i] : []));
      expect(refused).toEqual([20]);
    }));
});
