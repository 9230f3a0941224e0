import type { RowDataPacket } from 'mysql2/promise';
import { insertSession } from '../src/catalog/admin-repo';
import { riskOptions } from '../src/config/risk';
import { openSale } from '../src/jobs/session-lifecycle';
import { ORDER_STATUS } from '../src/lifecycle/statuses';
import { expirePlain } from '../src/orders/expire-batch';
import { RiskService } from '../src/risk/service';
import { audit } from './helpers/auditor';
import { countedPool } from './helpers/counted-pool';
import { createTestEnv, type TestEnv } from './helpers/env';
import { expireDue } from './helpers/expiry';
import { createSession, createUsers, purchase, type SessionFixture } from './helpers/fixtures';

/**
 * The expiry job takes the plain case of its due orders together (orders/expire-batch.ts): one
 * transaction for the batch, then the Redis holds and the buyers' streaks; an order whose
 * payment started goes alone through the cancel workflow. What each order gives back is what
 * the workflow gives back for one (test/expiry.test.ts holds the job to that as well).
 */
let env: TestEnv;
beforeAll(async () => (env = await createTestEnv()));
afterAll(() => env.close());

const q = async (sql: string, params: unknown[] = []) =>
  (await env.deps.db.query<RowDataPacket[]>(sql, params))[0];

/** expirePlain's deps on the real pool, its calls counted. */
function counted() {
  const { calls, db } = countedPool(env.deps.db);
  const risk = new RiskService(db, env.deps.redis, env.deps.log, riskOptions(env.config));
  const release = (sessionId: string, id: string) => env.deps.orders.releaseInventory(sessionId, id);
  return { calls, d: { db, risk, log: env.deps.log, release } };
}

/** A second on-sale session of the same show, with `seats` seats of its own venue's. */
async function secondSession(s: SessionFixture): Promise<{ id: string; seatIds: string[] }> {
  const id = await insertSession(env.deps.db, {
    showId: s.showId,
    startsAt: new Date(env.clock.now().getTime() + 40 * 86_400_000),
    saleStartsAt: env.clock.now(),
    holdMinutes: 1,
    tiers: [{ name: '看台', priceFen: 100 }],
  });
  await openSale(env.deps, id, env.clock.now());
  return { id, seatIds: [...(await env.deps.catalog.requireSession(id)).seats.keys()] };
}

const idOf = async (orderNo: string) =>
  String((await q('SELECT id FROM orders WHERE order_no = ?', [orderNo]))[0]!.id);

/** `n` pending orders of a new session (hold one minute), one seat each, each of its own buyer. */
async function pendingOrdersIn(n: number): Promise<{ s: SessionFixture; ids: string[] }> {
  const s = await createSession(env.deps, { seats: 10, holdMinutes: 1 });
  const ids = [];
  for (const [i, u] of (await createUsers(env.deps, n)).entries())
    ids.push(
      await idOf((await purchase(env, u, { sessionId: s.sessionId, seatIds: [s.seatIds[i]!] })).orderNo),
    );
  return { s, ids };
}
const pendingOrders = async (n: number) => (await pendingOrdersIn(n)).ids;

it('expires a batch in one transaction: claims, both quotas and the holds come back, each hold counted', async () => {
  const s = await createSession(env.deps, {
    seats: 20,
    zones: [{ name: 'GA', capacity: 10 }],
    holdMinutes: 1,
  });
  await q('UPDATE shows SET show_purchase_limit = 6 WHERE id = ?', [s.showId]);
  env.deps.catalog.invalidate(s.sessionId);
  const s2 = await secondSession(s);
  const [a, b, c] = await createUsers(env.deps, 3);
  const orders = [
    await purchase(env, a!, { sessionId: s.sessionId, seatIds: s.seatIds.slice(0, 2) }),
    await purchase(env, a!, { sessionId: s.sessionId, zoneId: s.zoneIds[0]!, quantity: 2 }),
    await purchase(env, a!, { sessionId: s2.id, seatIds: s2.seatIds.slice(0, 1) }),
    await purchase(env, b!, { sessionId: s.sessionId, seatIds: s.seatIds.slice(2, 3) }),
    await purchase(env, c!, { sessionId: s2.id, seatIds: s2.seatIds.slice(1, 3) }),
  ];
  const ids = await Promise.all(orders.map((o) => idOf(o.orderNo)));
  expect(await q('SELECT used FROM user_show_quota WHERE user_id = ?', [a])).toEqual([{ used: 5 }]);
  env.clock.advance(61_000);
  const { calls, d } = counted();
  const r = await expirePlain(d, ids, env.clock.now());
  expect(r.cancelled.map((o) => o.id).sort()).toEqual([...ids].sort());
  expect(r.paymentStarted).toEqual([]);
  // One transaction for the five, then the streaks: an UPDATE per count of holds (a has three,
  // b and c one), the users at the cap, the live sessions of a's cooldown. One by one it was
  // eleven statements an order.
  expect(calls).toEqual({ getConnection: 1, query: 4 });
  const rows = await q('SELECT status, cancel_reason FROM orders WHERE id IN (?)', [ids]);
  expect(rows).toEqual(Array(5).fill({ status: ORDER_STATUS.CANCELLED, cancel_reason: 'expired' }));
  expect(await q('SELECT * FROM seat_claims WHERE order_id IN (?)', [ids])).toEqual([]);
  expect(await q('SELECT * FROM zone_claims WHERE order_id IN (?)', [ids])).toEqual([]);
  const used = await q(
    'SELECT user_id, session_id, used FROM user_session_quota WHERE user_id IN (?) ORDER BY user_id, session_id',
    [[a, b, c]],
  );
  expect(used.map((u) => Number(u.used))).toEqual([0, 0, 0, 0]);
  const showUsed = await q('SELECT used FROM user_show_quota WHERE user_id IN (?)', [[a, b, c]]);
  expect(showUsed.map((u) => Number(u.used))).toEqual([0, 0, 0]);
  const streaks = await q('SELECT id, expired_streak FROM users WHERE id IN (?) ORDER BY id', [[a, b, c]]);
  expect(streaks.map((u) => Number(u.expired_streak))).toEqual([3, 1, 1]);
  // a reached the cap (EXPIRED_HOLDS_MAX 3): a cooldown, as one by one.
  await expect(purchase(env, a!, { sessionId: s.sessionId, seatIds: [s.seatIds[9]!] })).rejects.toMatchObject(
    {
      code: 'HOLD_COOLDOWN',
    },
  );
  // The holds are back in Redis: another buyer takes the same seats and units.
  expect(await audit(env.deps, s.sessionId, env.clock.now().getTime())).toEqual([]);
  expect(await audit(env.deps, s2.id, env.clock.now().getTime())).toEqual([]);
  await purchase(env, b!, { sessionId: s.sessionId, seatIds: s.seatIds.slice(0, 2) });
  await purchase(env, c!, { sessionId: s2.id, seatIds: s2.seatIds.slice(0, 1) });
});

it('leaves an order whose payment started to the cancel workflow, and touches none not due or not pending', async () => {
  const [plain, paying, paid, late] = await pendingOrders(4);
  await q("UPDATE orders SET prepay_id = 'wx-prepay-batch' WHERE id = ?", [paying]);
  await q('UPDATE orders SET status = ? WHERE id = ?', [ORDER_STATUS.PAID, paid]);
  env.clock.advance(61_000);
  await q('UPDATE orders SET expire_at = ? WHERE id = ?', [
    new Date(env.clock.now().getTime() + 86_400_000),
    late,
  ]);
  const { d } = counted();
  const r = await expirePlain(d, [plain!, paying!, paid!, late!], env.clock.now());
  expect(r.cancelled.map((o) => o.id)).toEqual([plain]);
  expect(r.paymentStarted).toEqual([paying]);
  const status = async (id: string) =>
    Number((await q('SELECT status FROM orders WHERE id = ?', [id]))[0]!.status);
  expect(await status(paying!)).toBe(ORDER_STATUS.PENDING);
  expect(await status(paid!)).toBe(ORDER_STATUS.PAID);
  expect(await status(late!)).toBe(ORDER_STATUS.PENDING);
  expect(
    await q('SELECT order_id FROM seat_claims WHERE order_id IN (?) ORDER BY order_id', [
      [paying, paid, late],
    ]),
  ).toHaveLength(3);
});

it('the job expires the plain ones together; one whose payment started still meets the cancel guard', async () => {
  const { s, ids } = await pendingOrdersIn(3);
  // A payment WeChat has no trade for: the guard cannot confirm a close, so the order waits for
  // the next run (in a batch it would have been cancelled with no question asked).
  await q("UPDATE orders SET prepay_id = 'wx-prepay-unknown' WHERE id = ?", [ids[1]]);
  env.clock.advance(61_000);
  await expireDue(env); // (earlier tests' orders fall due too: the statuses below are this test's)
  const status = async (id: string) =>
    Number((await q('SELECT status FROM orders WHERE id = ?', [id]))[0]!.status);
  expect(await Promise.all(ids.map(status))).toEqual([
    ORDER_STATUS.CANCELLED,
    ORDER_STATUS.PENDING,
    ORDER_STATUS.CANCELLED,
  ]);
  expect(await audit(env.deps, s.sessionId, env.clock.now().getTime())).toEqual([]);
  expect(await env.deps.inventory.availability(s.sessionId)).toBe(9);
});
