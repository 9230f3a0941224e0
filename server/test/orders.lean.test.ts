import { gzipSync } from 'node:zlib';
import type { TestEnv } from './helpers/env';
import { createSession, createUsers, type SessionFixture } from './helpers/fixtures';
import type { TestServer } from './helpers/http';
import { get, laneAndKoa } from './helpers/lean';

/**
 * The purchase on the lean lane (http/lean.ts): answered before Koa, with the answer its Koa
 * route gives (status, body, headers) for a sale, a replay and every refusal, and the same
 * metrics. Refusals change nothing, so each is sent to both servers in turn.
 */
const { t, contexts, both } = laneAndKoa({ RATE_PURCHASE_USER: '3/60', BODY_LIMIT_BYTES: '2048' });
let env: TestEnv;
let lean: TestServer;
let koa: TestServer;
let s: SessionFixture;
let closed: SessionFixture;

beforeAll(async () => {
  ({ env, lean, koa } = t);
  s = await createSession(env.deps, {
    seats: 20,
    zones: [{ name: '内场站席', capacity: 2 }],
    purchaseLimit: 4,
  });
  closed = await createSession(env.deps, { seats: 2, open: false });
});

const PATH = '/api/v1/orders';
const JSON_TYPE = { 'content-type': 'application/json' };
/** A fan not seen before (RATE_PURCHASE_USER counts each fan's purchases, on both servers together). */
const freshFan = async () => {
  const [u] = await createUsers(env.deps, 1, 'lean');
  return { authorization: `Bearer ${await lean.tokenFor(u!)}` };
};
const post = (body?: RequestInit['body']): RequestInit => ({ method: 'POST', body });
const buy = (body: unknown) => post(JSON.stringify(body));

it('sells on the lane with the answer Koa gives, and a retry under the same key replays the order through either', async () => {
  const fan = { ...(await freshFan()), ...JSON_TYPE };
  const body = buy({ sessionId: s.sessionId, seatIds: [s.seatIds[0]] });
  contexts.mockClear();
  const sold = await get(lean.url, PATH, { ...fan, 'idempotency-key': 'lean-sale-1' }, body);
  expect(contexts).not.toHaveBeenCalled();
  expect(sold.status).toBe(201);
  expect(sold.body).toMatchObject({ orderNo: expect.any(String), status: 'pending' });
  const replay = await get(koa.url, PATH, { ...fan, 'idempotency-key': 'lean-sale-1' }, body);
  expect(replay).toEqual({ ...sold, id: expect.any(String) });

  // the other way round: sold through Koa, replayed on the lane
  const other = { ...(await freshFan()), ...JSON_TYPE, 'idempotency-key': 'lean-sale-2' };
  const zone = buy({ sessionId: s.sessionId, zoneId: s.zoneIds[0], quantity: 1 });
  const viaKoa = await get(koa.url, PATH, other, zone);
  contexts.mockClear();
  const again = await get(lean.url, PATH, other, zone);
  expect(contexts).not.toHaveBeenCalled();
  expect(viaKoa.status).toBe(201);
  expect(again).toEqual({ ...viaKoa, id: expect.any(String) });
  // the same key with another body is refused alike
  const third = { ...(await freshFan()), ...JSON_TYPE, 'idempotency-key': 'lean-sale-3' };
  expect(
    (await get(lean.url, PATH, third, buy({ sessionId: s.sessionId, seatIds: [s.seatIds[6]] }))).status,
  ).toBe(201);
  const r = await both(PATH, third, buy({ sessionId: s.sessionId, seatIds: [s.seatIds[5]] }));
  expect(r.viaLane.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
  expect(r.viaLane).toEqual({ ...r.viaKoa, id: expect.any(String) });
});

it('refuses on the lane as Koa does: taken, sold out, over the limit, not on sale, a bad key, a bad body, no token', async () => {
  const bystander = { ...(await freshFan()), ...JSON_TYPE };
  await get(lean.url, PATH, bystander, buy({ sessionId: s.sessionId, zoneId: s.zoneIds[0], quantity: 1 }));
  const seat = (i: number) => ({ sessionId: s.sessionId, seatIds: [s.seatIds[i]] });
  const cases: [Record<string, string>, RequestInit, number, string?][] = [
    [{}, buy(seat(0)), 409, 'SEAT_TAKEN'], // sold above
    [{}, buy({ sessionId: s.sessionId, zoneId: s.zoneIds[0], quantity: 1 }), 409, 'SOLD_OUT'],
    [{}, buy({ sessionId: s.sessionId, seatIds: s.seatIds.slice(10, 15) }), 409, 'LIMIT_EXCEEDED'],
    [{}, buy({ sessionId: closed.sessionId, seatIds: [closed.seatIds[0]] }), 409],
    [{}, buy({ sessionId: '999999999', seatIds: ['1'] }), 404],
    [{ 'idempotency-key': '!' }, buy(seat(2)), 400, 'VALIDATION_FAILED'],
    [{}, post('{'), 400],
    [{}, post('[]'), 400],
    [{}, buy({ sessionId: s.sessionId, seatIds: [s.seatIds[2]], extra: 1 }), 400],
    [{}, buy({ sessionId: s.sessionId, seatIds: [s.seatIds[2]], pad: 'x'.repeat(4096) }), 413],
    [{ 'content-type': 'text/plain' }, post(JSON.stringify(seat(2))), 400], // not read: no body
    [{ 'content-encoding': 'gzip' }, post(gzipSync('{')), 400],
  ];
  for (const [headers, init, expected, code] of cases) {
    const r = await both(PATH, { ...(await freshFan()), ...JSON_TYPE, ...headers }, init);
    expect(r.laneContexts).toBe(0);
    expect(r.koaContexts).toBe(1);
    expect(r.viaLane.status).toBe(expected);
    if (code) expect(r.viaLane.body.error.code).toBe(code);
    expect(r.viaLane).toEqual({ ...r.viaKoa, id: expect.any(String) });
  }
  // the token is checked before the body and the key, on both
  const unauthorized: Record<string, string>[] = [
    {},
    { authorization: 'Bearer not.a.token' },
    { 'idempotency-key': '!' },
  ];
  for (const headers of unauthorized) {
    const r = await both(PATH, { ...JSON_TYPE, ...headers }, post('[]'));
    expect(r.laneContexts).toBe(0);
    expect(r.viaLane.status).toBe(401);
    expect(r.viaLane).toEqual({ ...r.viaKoa, id: expect.any(String) });
  }
  const staff = { authorization: `Bearer ${await lean.tokenFor('admin:1', ['admin'])}`, ...JSON_TYPE };
  const r = await both(PATH, staff, buy(seat(3)));
  expect(r.viaLane.status).toBe(401);
  expect(r.viaLane).toEqual({ ...r.viaKoa, id: expect.any(String) });
});

it('counts one rate limit for both, and refuses past it with Retry-After alike', async () => {
  // RATE_PURCHASE_USER 3/60: one counter for both servers (the same Redis); a replay counts too
  const fan = { ...(await freshFan()), ...JSON_TYPE };
  const seat = (i: number) => buy({ sessionId: s.sessionId, seatIds: [s.seatIds[i]] });
  expect((await get(lean.url, PATH, fan, seat(16))).status).toBe(201);
  expect((await get(koa.url, PATH, fan, seat(17))).status).toBe(201);
  expect((await get(lean.url, PATH, fan, seat(18))).status).toBe(201);
  const limited = await both(PATH, fan, seat(19));
  expect(limited.viaLane.status).toBe(429);
  expect(limited.viaLane.headers['retry-after']).toMatch(/^\d+$/);
  expect(limited.viaLane).toEqual({ ...limited.viaKoa, id: expect.any(String) });
});

it('leaves other paths and methods to Koa, and counts a purchase in one metrics series', async () => {
  const fan = { ...(await freshFan()), ...JSON_TYPE };
  const taken = buy({ sessionId: s.sessionId, seatIds: [s.seatIds[0]] });
  for (const path of [`${PATH}/`, '/API/v1/orders']) {
    const r = await both(path, fan, taken);
    expect(r.laneContexts).toBe(1);
    expect(r.viaLane).toEqual({ ...r.viaKoa, id: expect.any(String) });
  }
  const list = await both(PATH, fan);
  expect(list.laneContexts).toBe(1);
  expect(list.viaLane.status).toBe(200);

  const count = async () => {
    const text = await env.deps.metrics.registry.metrics();
    const refused = /purchases_total\{result="SEAT_TAKEN"\} (\d+)/.exec(text);
    const series = text.match(
      /http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/orders",status="409"\}/g,
    );
    return { refused: Number(refused?.[1] ?? 0), series: series?.length };
  };
  const before = await count();
  const other = { ...(await freshFan()), ...JSON_TYPE };
  await get(koa.url, PATH, other, taken);
  await get(lean.url, PATH, other, taken);
  expect(await count()).toEqual({ refused: before.refused + 2, series: 1 });
});
