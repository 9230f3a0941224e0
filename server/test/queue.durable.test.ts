import type { RowDataPacket } from 'mysql2/promise';
import type { QueueStatus } from '@showtix/shared-types';
import type { Cluster, Redis } from 'ioredis';
import { createTestEnv, type TestEnv } from './helpers/env';
import { createSession, createUsers, purchase, type SessionFixture } from './helpers/fixtures';

/**
 * The waiting room survives Redis losing it (issue 13): joins, the draw and admissions are in
 * MySQL, and a queue Redis lost (a flush, a restart, a failover that dropped the last writes) is
 * rebuilt in the same order: no fan loses a place, none is admitted twice, admission resumes.
 */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv({ QUEUE_TURN_MS: String(10 * 60_000), RATE_QUEUE_USER: '1000/1' });
});
afterAll(() => env.close());

async function queueSession(o: {
  seats?: number;
  ratePerMin: number;
  open?: boolean;
}): Promise<SessionFixture> {
  const s = await createSession(env.deps, { seats: o.seats ?? 50, open: o.open });
  await env.deps.db.query('UPDATE show_sessions SET queue_enabled = 1, queue_rate_per_min = ? WHERE id = ?', [
    o.ratePerMin,
    s.sessionId,
  ]);
  env.deps.catalog.invalidate(s.sessionId);
  return s;
}

async function openSale(sessionId: string): Promise<void> {
  await env.deps.db.query('UPDATE show_sessions SET status = 2 WHERE id = ?', [sessionId]);
  env.deps.catalog.invalidate(sessionId);
  await env.deps.inventory.rebuild(sessionId, env.clock.now().getTime());
}

const tick = async (sessionId: string) =>
  env.deps.queue.tick((await env.deps.catalog.requireSession(sessionId))!, env.clock.now());
const join = (fan: string, sessionId: string) => env.deps.queue.join(fan, sessionId, {}, env.clock.now());
const status = (fan: string, sessionId: string) => env.deps.queue.status(fan, sessionId, env.clock.now());

async function line(sessionId: string): Promise<Map<string, number>> {
  const z = await env.deps.redis.zrange(env.deps.keys.session(sessionId).queue.line, '0', '-1', 'WITHSCORES');
  const m = new Map<string, number>();
  for (let i = 0; i < z.length; i += 2) m.set(z[i]!, Number(z[i + 1]));
  return m;
}

/**
 * Redis loses the session, as a FLUSHALL or a restart without persistence would: every key under
 * its hash tag, in one DEL (atomic, like the flush; they share a slot, so this works on the
 * Cluster too). Never FLUSHALL: the Redis is shared.
 */
async function loseRedis(sessionId: string): Promise<void> {
  const r = env.deps.redis as unknown as Redis | Cluster;
  const match = `${env.config.redisKeyPrefix}{s:${sessionId}}*`;
  const found: string[] = [];
  for (const node of 'nodes' in r && typeof r.nodes === 'function' ? r.nodes('master') : [r as Redis]) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', match, 'COUNT', 1000);
      found.push(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
  if (found.length) await r.del(...found);
}

it('Redis lost mid-queue, with joins in flight: same places, nobody admitted twice, admission resumes', async () => {
  const s = await queueSession({ open: false, ratePerMin: 600, seats: 50 });
  const PRE = 400;
  const pre = await createUsers(env.deps, PRE, 'pre');
  await Promise.all(pre.map((u) => join(u, s.sessionId)));
  await openSale(s.sessionId);
  await tick(s.sessionId); // opens and draws the pre-sale pool
  const later = await createUsers(env.deps, 200, 'late');
  for (const u of later.slice(0, 100)) await join(u, s.sessionId);
  env.clock.advance(2_000);
  await tick(s.sessionId); // 20 admitted
  const before = await line(s.sessionId);
  expect(before.size).toBe(PRE + 100);
  const firstFan = [...before].find(([, p]) => p === 1)![0];
  const first = await status(firstFan, s.sessionId);
  expect(first.state).toBe('admitted');
  await purchase(env, firstFan, {
    sessionId: s.sessionId,
    seatIds: [s.seatIds[0]!],
    admissionToken: first.admissionToken,
  });
  const admittedFans = (await Promise.all([...before.keys()].map((u) => status(u, s.sessionId)))).filter(
    (x) => x.admitted,
  );
  expect(admittedFans.length).toBe(20);

  // Redis loses everything while 100 more fans join and the crowd polls.
  const joining = later.slice(100).map((u) => join(u, s.sessionId).then((st) => [u, st] as const));
  const polling = [...before.keys()].slice(0, 200).map((u) => status(u, s.sessionId).catch((e) => e));
  await loseRedis(s.sessionId);
  const joined = await Promise.all(joining);
  await Promise.all(polling);

  // Every fan has the place they were told, in the same order; places stay unique.
  const after = await Promise.all(
    [...before.keys()].map(async (u) => [u, await status(u, s.sessionId)] as const),
  );
  for (const [u, st] of after) expect([u, st.position]).toEqual([u, before.get(u)]);
  for (const [u, st] of joined)
    expect([u, (await status(u, s.sessionId)).position]).toEqual([u, st.position]);
  const places = await line(s.sessionId);
  expect(places.size).toBe(PRE + 200);
  expect(new Set(places.values()).size).toBe(PRE + 200);
  expect(Math.max(...places.values())).toBe(PRE + 200);

  // Admitted fans are still admitted, with the same turn; the token already used stays used.
  expect(after.filter(([, st]) => st.admitted).length).toBe(20);
  const again = await status(firstFan, s.sessionId);
  expect(again.admissionExpiresAt).toBe(first.admissionExpiresAt);
  const replay = await env.deps.orders
    .create(
      firstFan,
      { sessionId: s.sessionId, seatIds: [s.seatIds[1]!], admissionToken: again.admissionToken },
      undefined,
      env.clock.now(),
    )
    .catch((e) => e.code);
  expect(replay).toBe('QUEUE_REQUIRED');

  // Admission resumes at the session's rate from where it was.
  env.clock.advance(1_000);
  const t = await tick(s.sessionId);
  expect(t?.admitted).toBe(30);
  const [[room]] = await env.deps.db.query<RowDataPacket[]>(
    'SELECT admitted_through FROM queue_rooms WHERE session_id = ?',
    [s.sessionId],
  );
  expect(Number(room!.admitted_through)).toBe(30);
}, 120_000);

it('Redis lost before the sale opens, and again while the pool is being drawn: the pool is drawn once, from the recorded seed', async () => {
  const s = await queueSession({ open: false, ratePerMin: 60 });
  const fans = await createUsers(env.deps, 300, 'pool');
  await Promise.all(fans.map((u) => join(u, s.sessionId)));
  await loseRedis(s.sessionId);
  expect((await status(fans[0]!, s.sessionId)).state).toBe('presale'); // rebuilt on the poll
  await openSale(s.sessionId);
  const q = env.deps.keys.session(s.sessionId).queue;
  // The sale opens (pool frozen, seed recorded), then Redis is lost before the draw ran.
  await env.deps.redis.queueOpen(q.state, q.pre, q.frozen, 'ab'.repeat(16), env.clock.now().getTime());
  await env.deps.db.query(
    'UPDATE queue_rooms SET seed = ?, opened_at = NOW(3), pool_size = 300 WHERE session_id = ?',
    ['ab'.repeat(16), s.sessionId],
  );
  await loseRedis(s.sessionId);
  expect((await status(fans[0]!, s.sessionId)).state).toBe('shuffling');
  await tick(s.sessionId);
  const drawn = await line(s.sessionId);
  expect(new Set(drawn.values()).size).toBe(300);
  expect(Math.max(...drawn.values())).toBe(300);
  // Lost once more after the draw: the same places.
  await loseRedis(s.sessionId);
  const st = await Promise.all(fans.map((u) => status(u, s.sessionId)));
  expect(st.map((x) => x.position)).toEqual(fans.map((u) => drawn.get(u)));
}, 60_000);

it('a failover that drops the last writes (older queue, keys still there) is noticed by the next tick and repaired', async () => {
  const s = await queueSession({ ratePerMin: 60 });
  await tick(s.sessionId);
  const fans = await createUsers(env.deps, 50, 'fo');
  for (const u of fans) await join(u, s.sessionId);
  const q = env.deps.keys.session(s.sessionId).queue;
  // The promoted replica lacks the last ten joins and gives their places again.
  await env.deps.redis.zrem(q.line, ...fans.slice(40));
  await env.deps.redis.hset(q.state, 'seq', 40);
  await tick(s.sessionId);
  const st = await Promise.all(fans.map((u) => status(u, s.sessionId)));
  expect(st.map((x) => x.position)).toEqual(fans.map((_, i) => i + 1));
  expect((await join('newcomer', s.sessionId)).position).toBe(51);
});

it('a failover that drops the last joins before the sale opens: the fan who polls finds their place at once', async () => {
  const s = await queueSession({ open: false, ratePerMin: 60 });
  const fans = await createUsers(env.deps, 20, 'prefo');
  for (const u of fans) await join(u, s.sessionId);
  const q = env.deps.keys.session(s.sessionId).queue;
  // The promoted replica lacks the last five joins; no tick runs before the sale opens.
  await env.deps.redis.zrem(q.pre, ...fans.slice(15));
  expect((await status(fans[19]!, s.sessionId)).state).toBe('presale');
  const pool = await env.deps.redis.zrange(q.pre, '0', '-1');
  expect(new Set(pool)).toEqual(new Set(fans));
  // A fan who never joined is told so (MySQL has no record): nothing is rebuilt for them.
  expect((await status('never-joined', s.sessionId)).state).toBe('not_joined');
});

it('a rebuild racing joins: a join recorded from the older Redis is fenced out and joins the rebuilt queue', async () => {
  const s = await queueSession({ ratePerMin: 60 });
  await tick(s.sessionId);
  const fans = await createUsers(env.deps, 400, 'race');
  const answers: [string, QueueStatus][] = [];
  const joining = Promise.all(fans.map((u) => join(u, s.sessionId).then((st) => answers.push([u, st]))));
  await new Promise((r) => setImmediate(r));
  await env.deps.queue.rebuild(s.sessionId, env.clock.now().getTime());
  await joining;
  const places = await line(s.sessionId);
  const [rows] = await env.deps.db.query<RowDataPacket[]>(
    'SELECT user_id, place FROM queue_entries WHERE session_id = ?',
    [s.sessionId],
  );
  const stored = new Map(rows.map((r) => [String(r.user_id), Number(r.place)]));
  for (const [u, st] of answers) {
    expect([u, places.get(u)]).toEqual([u, st.position]);
    expect([u, stored.get(u)]).toEqual([u, st.position]);
  }
  expect(new Set(places.values()).size).toBe(400);
  await env.deps.queue.rebuild(s.sessionId, env.clock.now().getTime());
  expect(await line(s.sessionId)).toEqual(places);
});

it('ticks racing a crowd of joins do not mistake new places for a lost queue (no needless rebuild)', async () => {
  const s = await queueSession({ ratePerMin: 6_000 });
  await tick(s.sessionId);
  const fans = await createUsers(env.deps, 600, 'crowd');
  let done = false;
  const joining = (async () => {
    for (let i = 0; i < fans.length; i += 50)
      await Promise.all(fans.slice(i, i + 50).map((u) => join(u, s.sessionId)));
    done = true;
  })();
  while (!done) {
    env.clock.advance(100);
    await tick(s.sessionId);
  }
  await joining;
  const [[room]] = await env.deps.db.query<RowDataPacket[]>(
    'SELECT epoch FROM queue_rooms WHERE session_id = ?',
    [s.sessionId],
  );
  expect(Number(room!.epoch)).toBe(1); // built once, at the first tick
});
