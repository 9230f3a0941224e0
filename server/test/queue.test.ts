import type { RowDataPacket } from 'mysql2/promise';
import type { CreateOrderInput } from '@showtix/shared-types';
import { createTestEnv, type TestEnv } from './helpers/env';
import { createSession, createUsers, purchase, redisOnlyHold, type SessionFixture } from './helpers/fixtures';
import { startTestServer, type TestServer } from './helpers/http';

/** The waiting room: fairness of places, admission at the rate, tokens that cannot be abused. */
let env: TestEnv;
let api: TestServer;
beforeAll(async () => {
  env = await createTestEnv({ QUEUE_TURN_MS: String(5 * 60_000), RATE_QUEUE_USER: '1000/1' });
  api = await startTestServer(env);
});
afterAll(async () => {
  await api.close();
  await env.close();
});

async function queueSession(
  o: { seats?: number; ratePerMin?: number; open?: boolean } = {},
): Promise<SessionFixture> {
  const s = await createSession(env.deps, { seats: o.seats ?? 20, open: o.open });
  await env.deps.db.query('UPDATE show_sessions SET queue_enabled = 1, queue_rate_per_min = ? WHERE id = ?', [
    o.ratePerMin ?? 60,
    s.sessionId,
  ]);
  env.deps.catalog.invalidate(s.sessionId);
  return s;
}

const tick = async (sessionId: string) =>
  env.deps.queue.tick((await env.deps.catalog.requireSession(sessionId))!, env.clock.now());

async function inBatches<T>(n: number, size: number, f: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += size)
    out.push(...(await Promise.all(Array.from({ length: Math.min(size, n - i) }, (_, j) => f(i + j)))));
  return out;
}

it('100,000 fans: the pre-sale pool is a random permutation, later arrivals queue in order, places are unique and complete', async () => {
  const s = await queueSession({ open: false, ratePerMin: 6_000 });
  const PRE = 60_000;
  const ALL = 100_000;
  await inBatches(PRE, 2_000, (i) => env.deps.queue.join(`fan${i}`, s.sessionId, {}, env.clock.now()));
  // the sale opens: the pool is frozen and drawn
  await env.deps.db.query('UPDATE show_sessions SET status = 2 WHERE id = ?', [s.sessionId]);
  env.deps.catalog.invalidate(s.sessionId);
  await env.deps.inventory.rebuild(s.sessionId, env.clock.now().getTime());
  await tick(s.sessionId);
  // Later arrivals: 200 one after another, then waves of 500 that arrive together (a join is
  // answered once its group commit is durable, so one-by-one joins cost a commit each).
  const SEQ = PRE + 200;
  for (let i = PRE; i < SEQ; i++) await env.deps.queue.join(`fan${i}`, s.sessionId, {}, env.clock.now());
  for (let i = SEQ; i < ALL; i += 500)
    await Promise.all(
      Array.from({ length: Math.min(500, ALL - i) }, (_, j) =>
        env.deps.queue.join(`fan${i + j}`, s.sessionId, {}, env.clock.now()),
      ),
    );
  const line = await env.deps.redis.zrange(
    env.deps.keys.session(s.sessionId).queue.line,
    '0',
    '-1',
    'WITHSCORES',
  );
  const place = new Map<string, number>();
  for (let i = 0; i < line.length; i += 2) place.set(line[i]!, Number(line[i + 1]));
  expect(place.size).toBe(ALL);
  expect(new Set(place.values()).size).toBe(ALL);
  expect(Math.min(...place.values())).toBe(1);
  expect(Math.max(...place.values())).toBe(ALL);
  const prePlaces = Array.from({ length: PRE }, (_, i) => place.get(`fan${i}`)!);
  expect(new Set(prePlaces).size).toBe(PRE);
  expect(Math.max(...prePlaces)).toBe(PRE); // the pool takes places 1..60,000, in a drawn order
  const inJoinOrder = prePlaces.filter((p, i) => p === i + 1).length;
  expect(inJoinOrder).toBeLessThan(100); // a random permutation, not the order they came in
  for (let i = PRE; i < SEQ; i++) expect(place.get(`fan${i}`)).toBe(i + 1);
  for (let i = SEQ; i < ALL; i++) {
    const wave = SEQ + Math.floor((i - SEQ) / 500) * 500; // a wave takes the places after the one before
    expect(place.get(`fan${i}`)).toBeGreaterThan(wave);
    expect(place.get(`fan${i}`)).toBeLessThanOrEqual(Math.min(wave + 500, ALL));
  }
  // every place is in MySQL too, as Redis has it
  const [rows] = await env.deps.db.query<RowDataPacket[]>(
    'SELECT user_id, place FROM queue_entries WHERE session_id = ?',
    [s.sessionId],
  );
  expect(rows.length).toBe(ALL);
  expect(rows.filter((r) => place.get(r.user_id) !== Number(r.place))).toEqual([]);
}, 240_000);

it('admits in place order at the configured rate, then hands out a token for a time-limited turn', async () => {
  const s = await queueSession({ ratePerMin: 120 }); // two a second
  await tick(s.sessionId);
  const fans = Array.from({ length: 10 }, (_, i) => `rate${i}`);
  for (const f of fans) await env.deps.queue.join(f, s.sessionId, {}, env.clock.now());
  const admittedAfter = async (ms: number) => {
    env.clock.advance(ms);
    await tick(s.sessionId);
    return Promise.all(fans.map((f) => env.deps.queue.status(f, s.sessionId, env.clock.now())));
  };
  let st = await admittedAfter(1_000);
  expect(st.map((x) => x.admitted)).toEqual([
    true,
    true,
    false,
    false,
    false,
    false,
    false,
    false,
    false,
    false,
  ]);
  expect(st[2]).toMatchObject({ state: 'waiting', position: 3, ahead: 0 });
  expect(st[9]).toMatchObject({ ahead: 7, etaSeconds: 4 });
  st = await admittedAfter(1_500);
  expect(st.filter((x) => x.admitted).map((x) => x.position)).toEqual([1, 2, 3, 4, 5]);
  expect(st[0]!.admissionToken).toEqual(expect.any(String));
  expect(st[0]!.pollAfterMs).toBeGreaterThan(st[4]!.pollAfterMs - 1);
  // the turn ends: the place is given up, joining again queues at the back
  env.clock.advance(5 * 60_000 + 1);
  expect((await env.deps.queue.status(fans[0]!, s.sessionId, env.clock.now())).state).toBe('expired');
  expect((await env.deps.queue.join(fans[0]!, s.sessionId, {}, env.clock.now())).position).toBe(11);
});

it('a turn starts at admission, not at the first poll', async () => {
  const s = await queueSession({ ratePerMin: 60 });
  await tick(s.sessionId);
  await env.deps.queue.join('late-poller', s.sessionId, {}, env.clock.now());
  env.clock.advance(1_000);
  await tick(s.sessionId); // admitted now
  const admittedAt = env.clock.now().getTime();
  env.clock.advance(4 * 60_000); // the fan asks only four minutes later
  const st = await env.deps.queue.status('late-poller', s.sessionId, env.clock.now());
  expect(st.state).toBe('admitted');
  expect(Date.parse(st.admissionExpiresAt!)).toBe(admittedAt + 5 * 60_000);
  env.clock.advance(60_000);
  expect((await env.deps.queue.status('late-poller', s.sessionId, env.clock.now())).state).toBe('expired');
});

it('a fan whose turn ended may keep polling: no rebuild of the room from MySQL', async () => {
  const s = await queueSession({ ratePerMin: 60 });
  await tick(s.sessionId);
  await env.deps.queue.join('gone-poller', s.sessionId, {}, env.clock.now());
  env.clock.advance(1_000);
  await tick(s.sessionId); // admitted (its turn start recorded in MySQL)
  const epoch = async () => {
    const [rows] = await env.deps.db.query<RowDataPacket[]>(
      'SELECT epoch FROM queue_rooms WHERE session_id = ?',
      [s.sessionId],
    );
    return Number(rows[0]!.epoch);
  };
  const before = await epoch();
  env.clock.advance(5 * 60_000 + 1);
  expect((await env.deps.queue.status('gone-poller', s.sessionId, env.clock.now())).state).toBe('expired');
  // Its place is gone from Redis but still in MySQL: each of these polls rebuilt the whole room.
  for (let i = 0; i < 3; i++)
    expect((await env.deps.queue.status('gone-poller', s.sessionId, env.clock.now())).state).toBe(
      'not_joined',
    );
  expect(await epoch()).toBe(before);
  // A fan Redis lost with a place and no turn yet is still found, and the room rebuilt for them.
  const joined = await env.deps.queue.join('lost-waiter', s.sessionId, {}, env.clock.now());
  await env.deps.redis.zrem(env.deps.keys.session(s.sessionId).queue.line, 'lost-waiter');
  // Within the staleness bound this instance answers from the place it noted at the join
  // (queue/waiting-places.ts); past it, the poll reads Redis and finds the loss.
  expect((await env.deps.queue.status('lost-waiter', s.sessionId, env.clock.now())).position).toBe(
    joined.position,
  );
  expect(await epoch()).toBe(before);
  env.clock.advance(env.config.queue.pollMaxAgeMs);
  expect((await env.deps.queue.status('lost-waiter', s.sessionId, env.clock.now())).state).not.toBe(
    'not_joined',
  );
  expect(await epoch()).toBe(before + 1);
});

it('admits faster when stock comes back, and tells everyone when the session sells out', async () => {
  const s = await queueSession({ seats: 2, ratePerMin: 1 });
  await tick(s.sessionId);
  const [u1] = await createUsers(env.deps, 1);
  for (let i = 0; i < 5; i++) await env.deps.queue.join(`back${i}`, s.sessionId, {}, env.clock.now());
  await env.deps.queue.join(u1!, s.sessionId, {}, env.clock.now());
  const admitted = async () =>
    Number(await env.deps.redis.hget(env.deps.keys.session(s.sessionId).queue.state, 'admitted'));
  expect(await admitted()).toBe(0);
  // fans sell the session out
  const o = await env.deps.orders
    .create(u1!, { sessionId: s.sessionId, seatIds: s.seatIds }, undefined, env.clock.now())
    .catch((e) => e);
  expect(o.code).toBe('QUEUE_REQUIRED'); // not admitted yet
  await env.deps.db.query('UPDATE show_sessions SET queue_enabled = 0 WHERE id = ?', [s.sessionId]);
  env.deps.catalog.invalidate(s.sessionId);
  const bought = await purchase(env, u1!, { sessionId: s.sessionId, seatIds: s.seatIds });
  await env.deps.db.query('UPDATE show_sessions SET queue_enabled = 1 WHERE id = ?', [s.sessionId]);
  env.deps.catalog.invalidate(s.sessionId);
  env.clock.advance(1_000);
  await tick(s.sessionId);
  expect((await env.deps.queue.status('back0', s.sessionId, env.clock.now())).state).toBe('sold_out');
  // the buyer cancels: two units are back, two more fans are let in at once
  await env.deps.orders.cancel(u1!, bought.orderNo, env.clock.now());
  env.clock.advance(1_000);
  await tick(s.sessionId);
  expect(await admitted()).toBe(2);
  expect((await env.deps.queue.status('back0', s.sessionId, env.clock.now())).state).toBe('admitted');
});

describe('admission tokens', () => {
  let s: SessionFixture;
  let fan: string;
  let other: string;
  let token: string;
  beforeAll(async () => {
    s = await queueSession({ seats: 10, ratePerMin: 6_000 });
    [fan, other] = await createUsers(env.deps, 2);
    await tick(s.sessionId);
    await env.deps.queue.join(fan!, s.sessionId, {}, env.clock.now());
    await env.deps.queue.join(other!, s.sessionId, {}, env.clock.now());
    env.clock.advance(1_000);
    await tick(s.sessionId);
    token = (await env.deps.queue.status(fan!, s.sessionId, env.clock.now())).admissionToken!;
  });
  const buy = (user: string, body: Partial<CreateOrderInput> & { admissionToken?: string }, seat = 0) =>
    env.deps.orders
      .create(
        user,
        { sessionId: s.sessionId, seatIds: [s.seatIds[seat]!], ...body } as CreateOrderInput,
        undefined,
        env.clock.now(),
      )
      .then(
        () => 'ok',
        (e) => e.code as string,
      );

  it('are required while the queue is on', async () => expect(await buy(fan!, {})).toBe('QUEUE_REQUIRED'));
  it('cannot be forged', async () => {
    const [payload] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), u: other }),
    ).toString('base64url');
    expect(await buy(other!, { admissionToken: `${forged}.${token.split('.')[1]}` })).toBe('QUEUE_REQUIRED');
    expect(await buy(fan!, { admissionToken: token.slice(0, -2) + 'AA' })).toBe('QUEUE_REQUIRED');
  });
  it('cannot be used by another account or for another session', async () => {
    expect(await buy(other!, { admissionToken: token })).toBe('QUEUE_REQUIRED');
    const s2 = await queueSession();
    const r = await env.deps.orders
      .create(
        fan!,
        { sessionId: s2.sessionId, seatIds: [s2.seatIds[0]!], admissionToken: token },
        undefined,
        env.clock.now(),
      )
      .catch((e) => e.code);
    expect(r).toBe('QUEUE_REQUIRED');
  });
  it('buy once: a refused attempt does not use the token up, a replay after the purchase is refused', async () => {
    // another buyer's hold on seat 5, so the first attempt is refused
    await redisOnlyHold(env, {
      sessionId: s.sessionId,
      orderId: '77',
      userId: other!,
      seatIds: [s.seatIds[5]!],
    });
    expect(await buy(fan!, { admissionToken: token }, 5)).toBe('SEAT_TAKEN');
    expect(await buy(fan!, { admissionToken: token }, 0)).toBe('ok');
    expect(await buy(fan!, { admissionToken: token }, 1)).toBe('QUEUE_REQUIRED');
  });
  it('stay used up when Redis loses the marker: MySQL refuses the replay, a rebuild restores the marker', async () => {
    const k = env.deps.keys.session(s.sessionId);
    const jti = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).j as string;
    await env.deps.redis.del(k.admission(jti)); // Redis lost the marker (only)
    const before = await env.deps.inventory.availability(s.sessionId);
    expect(await buy(fan!, { admissionToken: token }, 2)).toBe('QUEUE_REQUIRED');
    expect(await env.deps.inventory.availability(s.sessionId)).toBe(before); // the hold went back
    await env.deps.redis.del(k.admission(jti), k.meta); // Redis lost the session: rebuilt from MySQL
    await env.deps.inventory.rebuild(s.sessionId, env.clock.now().getTime());
    expect(await env.deps.redis.get(k.admission(jti))).toEqual(expect.any(String));
    expect(await buy(fan!, { admissionToken: token }, 2)).toBe('QUEUE_REQUIRED');
  });
  it('a buyer who cancels gets the turn back to pick other seats', async () => {
    const o = await purchase(env, other!, {
      sessionId: s.sessionId,
      seatIds: [s.seatIds[3]!],
      admissionToken: (await env.deps.queue.status(other!, s.sessionId, env.clock.now())).admissionToken,
    });
    const t = (await env.deps.queue.status(other!, s.sessionId, env.clock.now())).admissionToken;
    expect(await buy(other!, { admissionToken: t }, 4)).toBe('QUEUE_REQUIRED');
    await env.deps.orders.cancel(other!, o.orderNo, env.clock.now());
    expect(await buy(other!, { admissionToken: t }, 4)).toBe('ok');
  });
  it('expire with the turn', async () => {
    const [late] = await createUsers(env.deps, 1);
    await env.deps.queue.join(late!, s.sessionId, {}, env.clock.now());
    env.clock.advance(1_000);
    await tick(s.sessionId);
    const t2 = (await env.deps.queue.status(late!, s.sessionId, env.clock.now())).admissionToken;
    expect(t2).toEqual(expect.any(String));
    env.clock.advance(5 * 60_000 + 1_000);
    expect(await buy(late!, { admissionToken: t2 }, 2)).toBe('QUEUE_REQUIRED');
  });
});

it('500 parallel joins from one account give one place (over HTTP, from several devices)', async () => {
  const s = await queueSession();
  await tick(s.sessionId);
  const [u] = await createUsers(env.deps, 1);
  const token = await api.tokenFor(u!);
  const answers = await Promise.all(
    Array.from({ length: 500 }, (_, i) =>
      api.call('POST', `/api/v1/sessions/${s.sessionId}/queue/join`, {
        token,
        body: {},
        headers: { 'x-device-id': `device-${i % 7}-abcdef` },
      }),
    ),
  );
  const places = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.position));
  expect([...places]).toEqual([1]);
  expect(await env.deps.redis.zcard(env.deps.keys.session(s.sessionId).queue.line)).toBe(1);
});

it('real-name sessions: one place per ID document, whichever account asks', async () => {
  const s = await queueSession();
  await env.deps.db.query('UPDATE show_sessions SET real_name = 1 WHERE id = ?', [s.sessionId]);
  env.deps.catalog.invalidate(s.sessionId);
  await tick(s.sessionId);
  const [a, b] = await createUsers(env.deps, 2);
  const id = { idType: 'id_card', idNumber: '11010519491231002X' };
  await env.deps.queue.join(a!, s.sessionId, id, env.clock.now());
  await expect(env.deps.queue.join(b!, s.sessionId, id, env.clock.now())).rejects.toMatchObject({
    code: 'QUEUE_ID_TAKEN',
  });
  await expect(env.deps.queue.join(b!, s.sessionId, {}, env.clock.now())).rejects.toMatchObject({
    code: 'VALIDATION_FAILED',
  });
});
