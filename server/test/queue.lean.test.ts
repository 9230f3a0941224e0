import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import Koa from 'koa';
import { leanLane } from '../src/app';
import { loadConfig } from '../src/config';
import { requestIp } from '../src/http/lean';
import type { TestEnv } from './helpers/env';
import { createSession } from './helpers/fixtures';
import type { TestServer } from './helpers/http';
import { get, laneAndKoa } from './helpers/lean';

/**
 * The waiting room's poll on the lean lane (http/lean.ts): answered before Koa, with the answer
 * its Koa route gives (status, body, headers), the same metrics and the same in-flight count.
 */
const { t, contexts, both } = laneAndKoa({
  RATE_POLL_USER: '3/60',
  RATE_QUEUE_USER: '1000/1',
  BODY_LIMIT_BYTES: '2048',
});
let env: TestEnv;
let lean: TestServer;
let koa: TestServer;
let sessionId: string;

beforeAll(async () => {
  ({ env, lean, koa } = t);
  const s = await createSession(env.deps, { seats: 5 });
  sessionId = s.sessionId;
  await env.deps.db.query(
    'UPDATE show_sessions SET queue_enabled = 1, queue_rate_per_min = 60 WHERE id = ?',
    [sessionId],
  );
  env.deps.catalog.invalidate(sessionId);
  await env.deps.queue.tick((await env.deps.catalog.requireSession(sessionId))!, env.clock.now());
});

const bearer = async (userId: string) => ({ authorization: `Bearer ${await lean.tokenFor(userId)}` });
/** A fan not seen before (RATE_POLL_USER counts each fan's polls, on both servers together). */
let fans = 720_000;
const freshFan = () => bearer(String(fans++));
const poll = () => `/api/v1/sessions/${sessionId}/queue`;

it('answers a poll before Koa with the answer Koa gives: waiting, admitted, not joined', async () => {
  for (const fan of ['710001', '710002', '710003'])
    await env.deps.queue.join(fan, sessionId, {}, env.clock.now());
  env.clock.advance(1_000);
  await env.deps.queue.tick((await env.deps.catalog.requireSession(sessionId))!, env.clock.now());
  for (const fan of ['710001', '710003', '710009']) {
    const r = await both(poll(), await bearer(fan));
    expect(r.laneContexts).toBe(0);
    expect(r.koaContexts).toBe(1);
    expect(r.viaLane.status).toBe(200);
    expect(r.viaLane).toEqual({ ...r.viaKoa, id: expect.any(String) });
  }
  const admitted = await get(lean.url, poll(), await bearer('710001'));
  expect(admitted.body).toMatchObject({ state: 'admitted', admissionToken: expect.any(String) });
  const waiting = await get(lean.url, poll(), await bearer('710003'));
  expect(waiting.body).toMatchObject({ state: 'waiting', position: 3 });
  // the security headers are the API's own (copied from helmet's answer, not written out again)
  expect(waiting.headers).toMatchObject({
    'content-security-policy': expect.stringContaining("default-src 'none'"),
    'x-content-type-options': 'nosniff',
    'content-type': 'application/json; charset=utf-8',
  });
});

it('refuses on the lane as the error middleware does: no token, a bad one, a staff token, an unknown session, over the limit (Retry-After)', async () => {
  const cases: [string, Record<string, string>][] = [
    [poll(), {}],
    [poll(), { authorization: 'Bearer not.a.token' }],
    [poll(), { authorization: `Bearer ${await lean.tokenFor('admin:1', ['admin'])}` }],
    ['/api/v1/sessions/999999999/queue', await bearer('710004')],
  ];
  for (const [path, headers] of cases) {
    const r = await both(path, headers);
    expect(r.laneContexts).toBe(0);
    expect(r.viaLane.status).toBeGreaterThanOrEqual(400);
    expect(r.viaLane).toEqual({ ...r.viaKoa, id: expect.any(String) });
  }
  // RATE_POLL_USER 3/60, one counter for both servers (the same instance's dependencies)
  const fan = await freshFan();
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await get(lean.url, poll(), fan)).status);
  expect(statuses).toEqual([200, 200, 200, 429]);
  const limited = await both(poll(), fan);
  expect(limited.viaLane.status).toBe(429);
  expect(limited.viaLane.headers['retry-after']).toMatch(/^\d+$/);
  expect(limited.viaLane).toEqual({ ...limited.viaKoa, id: expect.any(String) });
  // The lane writes every answer's headers from one array: the next answer carries none of these.
  const next = await both(poll(), await freshFan());
  expect(next.viaLane.status).toBe(200);
  expect(next.viaLane.headers['retry-after']).toBeUndefined();
  expect(next.viaLane).toEqual({ ...next.viaKoa, id: expect.any(String) });
});

it('leaves every other form of the path to Koa, which answers it as before', async () => {
  for (const path of [
    `${poll()}/`,
    `/API/v1/sessions/${sessionId}/queue`,
    `/api/v1/sessions/0${sessionId}/queue`,
  ]) {
    const r = await both(path, await freshFan());
    expect(r.laneContexts).toBe(1);
    expect(r.viaLane).toEqual({ ...r.viaKoa, id: expect.any(String) });
  }
  contexts.mockClear();
  const head = await fetch(lean.url + poll(), { method: 'HEAD', headers: await freshFan() });
  expect(head.status).toBe(200);
  expect(contexts).toHaveBeenCalledTimes(1);
});

it("keeps the request id, counts the request in the route's metrics and in flight until its answer has left", async () => {
  const given = await get(lean.url, poll(), { ...(await freshFan()), 'x-request-id': 'trace-lean-0001' });
  expect(given.id).toBe('trace-lean-0001');
  const made = await get(lean.url, poll(), { ...(await freshFan()), 'x-request-id': 'no spaces allowed' });
  expect(made.id).toMatch(/^[0-9a-f-]{36}$/);

  const count = async () => {
    const text = await env.deps.metrics.registry.metrics();
    const m =
      /http_request_duration_seconds_count\{method="GET",route="([^"]+\/queue)",status="200"\} (\d+)/.exec(
        text,
      );
    return { route: m?.[1], n: Number(m?.[2] ?? 0) };
  };
  const before = await count();
  await get(koa.url, poll(), await freshFan());
  const afterKoa = await count();
  await get(lean.url, poll(), await freshFan());
  const afterLane = await count();
  // one series: the lane names the route as Koa's router does
  expect(afterKoa).toEqual({ route: '/api/v1/sessions/:sessionId/queue', n: before.n + 1 });
  expect(afterLane).toEqual({ route: afterKoa.route, n: afterKoa.n + 1 });

  // A poll held inside the service is in flight (the drain waits for it), then is not.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const status = env.deps.queue.status.bind(env.deps.queue);
  const spy = jest.spyOn(env.deps.queue, 'status').mockImplementationOnce(async (...a) => {
    await held;
    return status(...a);
  });
  const answer = get(lean.url, poll(), await freshFan());
  await new Promise((r) => setTimeout(r, 100));
  expect(env.deps.lifecycle.inFlight).toBe(1);
  release();
  expect((await answer).status).toBe(200);
  spy.mockRestore();
  await new Promise((r) => setTimeout(r, 20));
  expect(env.deps.lifecycle.inFlight).toBe(0);
});

it('joins on the lane, the body read by the app’s own parser: the answer Koa gives for each body, good or bad, and the same place', async () => {
  const join = `/api/v1/sessions/${sessionId}/queue/join`;
  const json = { 'content-type': 'application/json' };
  const post = (body?: RequestInit['body']): RequestInit => ({ method: 'POST', body });
  const cases: [Record<string, string>, RequestInit, number][] = [
    [json, post('{}'), 200],
    [{}, post(), 200], // no body at all: {}
    [{ 'content-type': 'text/plain' }, post('not json'), 200], // not a JSON type: not read, {}
    [{ ...json, 'content-encoding': 'gzip' }, post(gzipSync('{}')), 200],
    [json, post('{'), 400],
    [json, post('[]'), 400],
    [json, post('"a"'), 400], // strict JSON: an object or an array
    [json, post(JSON.stringify({ idType: 'library_card' })), 400],
    [json, post(JSON.stringify({ seat: 1 })), 400], // a field a join does not have
    [json, post(JSON.stringify({ pad: 'x'.repeat(4096) })), 413],
  ];
  for (const [headers, init, expected] of cases) {
    const r = await both(join, { ...(await freshFan()), ...headers }, init);
    expect(r.laneContexts).toBe(0);
    expect(r.viaLane.status).toBe(expected);
    expect(r.viaLane).toEqual({ ...r.viaKoa, id: expect.any(String) });
  }
  // the body is read before the token is checked, on both
  for (const [headers, init] of [
    [json, post('{')],
    [json, post('{}')],
  ] as const) {
    const r = await both(join, headers, init);
    expect(r.laneContexts).toBe(0);
    expect(r.viaLane).toEqual({ ...r.viaKoa, id: expect.any(String) });
  }
  // joined on the lane, then asked again through Koa: one place
  const fan = await freshFan();
  const first = await get(lean.url, join, { ...fan, ...json }, post('{}'));
  const again = await get(koa.url, join, { ...fan, ...json }, post('{}'));
  expect(first.body).toMatchObject({ state: 'waiting', position: expect.any(Number) });
  expect(again.body).toEqual(first.body);
  // one metrics series for the joins of both
  const joins = async () => {
    const text = await env.deps.metrics.registry.metrics();
    const m = /http_request_duration_seconds_count\{method="POST",route="([^"]+)",status="200"\} (\d+)/.exec(
      text,
    );
    return { route: m?.[1], n: Number(m?.[2] ?? 0) };
  };
  const before = await joins();
  await get(koa.url, join, { ...(await freshFan()), ...json }, post('{}'));
  await get(lean.url, join, { ...(await freshFan()), ...json }, post('{}'));
  expect(await joins()).toEqual({ route: '/api/v1/sessions/:sessionId/queue/join', n: before.n + 2 });
});

it('reads the client address (the poll limits count by it) as Koa does, the trusted proxy hops applied', () => {
  for (const [proxy, maxIpsCount] of [
    [false, 0],
    [true, 1],
    [true, 2],
  ] as const) {
    const app = new Koa({ proxy, maxIpsCount });
    for (const xff of [undefined, '198.51.100.1', 'forged, 198.51.100.2', 'forged, 10.0.0.3, 198.51.100.4']) {
      const req = {
        headers: xff ? { 'x-forwarded-for': xff } : {},
        socket: { remoteAddress: '127.0.0.9' },
      } as unknown as IncomingMessage;
      const ip = app.createContext(req, {} as ServerResponse).ip;
      expect(requestIp(app, req)).toBe(ip);
      expect(ip).toBe(proxy && xff ? xff.split(', ').slice(-maxIpsCount)[0] : '127.0.0.9');
    }
  }
});

it('LEAN_LANE=off leaves the lane out; any other value refuses to start', () => {
  expect(
    leanLane(new Koa(), { ...env.deps, config: { ...env.deps.config, leanLane: false } }),
  ).toBeUndefined();
  expect(loadConfig({ ...process.env, LEAN_LANE: 'off' }).leanLane).toBe(false);
  expect(() => loadConfig({ ...process.env, LEAN_LANE: 'maybe' })).toThrow(/LEAN_LANE/);
});

it('sends a draining instance’s polls to Koa, which refuses them with Connection: close', async () => {
  const fan = await freshFan();
  env.deps.lifecycle.startDrain();
  contexts.mockClear();
  const res = await fetch(lean.url + poll(), { headers: fan });
  expect(res.status).toBe(503);
  expect(res.headers.get('connection')).toBe('close');
  expect(contexts).toHaveBeenCalledTimes(1);
});
