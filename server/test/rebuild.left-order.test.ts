import { InventoryAudit } from '../src/inventory/audit';
import { createTestEnv, type TestEnv } from './helpers/env';
import { createSession, createUsers, purchase, type SessionFixture } from './helpers/fixtures';

/**
 * Found by the chaos run (seed 1796): a rebuild reads the live orders, then the claims. An order
 * cancelled or refunded in between (its claims gone) was written back as a seat order with no
 * units; releasing it then failed in Lua (HMGET with no field) on every try, so its
 * inventory.release message was dead-lettered, re-driven and parked for good.
 */
let env: TestEnv;
let s: SessionFixture;
let users: string[];

beforeAll(async () => {
  env = await createTestEnv();
  s = await createSession(env.deps, { seats: 10, zones: [{ name: 'GA', capacity: 5 }] });
  users = await createUsers(env.deps, 2);
});
afterAll(() => env.close());

it('an order without claims at rebuild time is not recorded, and releasing it answers', async () => {
  const seatOrder = await purchase(env, users[0]!, { sessionId: s.sessionId, seatIds: [s.seatIds[0]!] });
  const zoneOrder = await purchase(env, users[1]!, {
    sessionId: s.sessionId,
    zoneId: s.zoneIds[0]!,
    quantity: 2,
  });
  const ids = await Promise.all(
    [seatOrder, zoneOrder].map(async (o) => {
      const [[row]] = await env.deps.db.query<any[]>('SELECT id FROM orders WHERE order_no = ?', [o.orderNo]);
      return String(row.id);
    }),
  );
  // What the rebuild sees when both orders leave between its two reads: live, without claims.
  await env.deps.db.query('DELETE FROM seat_claims WHERE order_id = ?', [ids[0]]);
  await env.deps.db.query('DELETE FROM zone_claims WHERE order_id = ?', [ids[1]]);
  await env.deps.inventory.rebuild(s.sessionId, env.clock.now().getTime());

  const k = env.deps.keys.session(s.sessionId);
  expect(await env.deps.redis.hmget(k.orders, ...ids)).toEqual([null, null]);
  expect(await env.deps.redis.hgetall(k.users)).toEqual({});
  for (const id of ids)
    await expect(env.deps.inventory.release(s.sessionId, id, false)).resolves.toEqual({ kind: 'unknown' });
});

it("the inventory audit repairs a buyer's unit count that Redis got wrong (two checks in a row)", async () => {
  const d = env.deps;
  const s = await createSession(d, { seats: 10 }); // the first test left its session inconsistent
  const [u] = await createUsers(d, 1);
  await purchase(env, u!, { sessionId: s.sessionId, seatIds: [s.seatIds[5]!] });
  const check = new InventoryAudit(d);
  const users = d.keys.session(s.sessionId).users;
  expect((await check.run([s.sessionId], env.clock.now())).get(s.sessionId)).toMatchObject({ seats: [] });
  await d.redis.hset(users, u!, 3); // what the chaos run saw: counted, nothing live
  const found = { diff: 0, seats: [`user-count:${u}`] };
  expect((await check.run([s.sessionId], env.clock.now())).get(s.sessionId)).toEqual({
    ...found,
    repaired: false,
  });
  expect((await check.run([s.sessionId], env.clock.now())).get(s.sessionId)).toEqual({
    ...found,
    repaired: true,
  });
  expect(await d.redis.hget(users, u!)).toBe('1');
});
