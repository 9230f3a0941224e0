import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import calculateSlot from 'cluster-key-slot';
import type { RowDataPacket } from 'mysql2/promise';
import { toAppError } from '../../src/http/errors';
import { audit } from '../helpers/auditor';
import { createTestEnv, type TestEnv } from '../helpers/env';
import { createSession, createUsers } from '../helpers/fixtures';

/**
 * A flash sale on the Redis Cluster while the master holding the session's slot is killed
 * (kill -9): its replica takes over (3-4 s with cluster-node-timeout 2000), the clients ride
 * through it, and MySQL (the record) never sells a unit twice. Replication is asynchronous, so
 * the promoted replica may lack the last holds: Redis is rebuilt from MySQL and then agrees.
 */
const DIR = process.env.TEST_REDIS_CLUSTER_DIR!;
const SCRIPT = path.resolve(__dirname, '../../../scripts/redis-cluster.mjs');
const BUSINESS = new Set(['SEAT_TAKEN', 'SOLD_OUT', 'LIMIT_EXCEEDED']);

let env: TestEnv;
beforeAll(async () => (env = await createTestEnv()));
afterAll(() => env.close());

async function masterPortOf(key: string): Promise<number> {
  const slot = calculateSlot(key);
  const slots = (await env.deps.redis.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
  return slots.find(([a, b]) => slot >= a && slot <= b)![2][1];
}

it('a master fails over mid-sale: every acknowledged order is in MySQL and nothing is sold twice', async () => {
  const s = await createSession(env.deps, {
    seats: 60,
    zones: [{ name: '内场站席', capacity: 60 }],
    purchaseLimit: 2,
  });
  const users = await createUsers(env.deps, 160, 'fo');
  const meta = env.deps.keys.session(s.sessionId).meta;
  const before = await masterPortOf(meta);

  const acked: string[] = [];
  const errors: string[] = [];
  let next = 0;
  const buyer = async () => {
    while (next < users.length) {
      const i = next++;
      const input =
        i % 2
          ? { sessionId: s.sessionId, zoneId: s.zoneIds[0]!, quantity: 2 }
          : { sessionId: s.sessionId, seatIds: [s.seatIds[i % 60]!, s.seatIds[(i * 7 + 1) % 60]!] };
      try {
        acked.push((await env.deps.orders.create(users[i]!, input, undefined, env.clock.now())).orderNo);
      } catch (err) {
        const code = toAppError(err).code;
        if (!BUSINESS.has(code)) errors.push(`${code}: ${(err as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, 40)); // spread the sale over the failover
    }
  };
  const sale = Promise.all(Array.from({ length: 4 }, buyer));
  await new Promise((r) => setTimeout(r, 400));
  const t0 = Date.now();
  process.kill(Number(readFileSync(path.join(DIR, String(before), 'pid'), 'utf8')), 'SIGKILL');
  await sale;
  let after = before;
  while (after === before) {
    await new Promise((r) => setTimeout(r, 200));
    after = await masterPortOf(meta).catch(() => before);
  }
  const recoveryS = (Date.now() - t0) / 1000;
  expect(after).not.toBe(before); // the replica was promoted
  expect(recoveryS).toBeLessThan(15);
  expect(acked.length).toBeGreaterThan(0);

  // lost_acknowledged 0: every order the sale acknowledged is in MySQL.
  const [rows] = await env.deps.db.query<RowDataPacket[]>(
    'SELECT order_no FROM orders WHERE session_id = ? AND status IN (1, 2, 3)',
    [s.sessionId],
  );
  const stored = new Set(rows.map((r) => String(r.order_no)));
  expect(acked.filter((no) => !stored.has(no))).toEqual([]);
  // oversold 0, double_sold 0: MySQL's own invariants.
  expect(await audit(env.deps, s.sessionId, env.clock.now().getTime(), { checkRedis: false })).toEqual([]);
  // Redis rebuilt from MySQL agrees with it again.
  await env.deps.inventory.rebuild(s.sessionId, env.clock.now().getTime());
  expect(await audit(env.deps, s.sessionId, env.clock.now().getTime())).toEqual([]);
  console.log(
    JSON.stringify({
      acked: acked.length,
      errors_during_failover: errors.length,
      errors: [...new Set(errors)].slice(0, 3),
      failover_recovery_s: recoveryS,
    }),
  );

  // The killed node rejoins as a replica of its old replica (for the files after this one).
  execFileSync(process.execPath, [SCRIPT, 'restart-node', DIR, String(before)]);
});
