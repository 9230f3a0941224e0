import Koa from 'koa';
import { createTestEnv, type TestEnv } from './helpers/env';
import { createSession, createUsers, purchase } from './helpers/fixtures';
import { startTestServer, type TestServer } from './helpers/http';

/**
 * The seat states on the lean lane (http/lean.ts): every open seat map polls them. Answered
 * before Koa with the answer its Koa route gives, Cache-Control on success included.
 */
let env: TestEnv;
let lean: TestServer;
let koa: TestServer;
let sessionId: string;
const contexts = jest.spyOn(Koa.prototype, 'createContext');

beforeAll(async () => {
  env = await createTestEnv();
  lean = await startTestServer(env);
  koa = await startTestServer(env, 0, { lean: false });
  const s = await createSession(env.deps, { seats: 20 });
  sessionId = s.sessionId;
  const [buyer] = await createUsers(env.deps, 1);
  await purchase(env, buyer!, { sessionId: s.sessionId, seatIds: [s.seatIds[0]!, s.seatIds[1]!] });
});
afterAll(async () => {
  contexts.mockRestore();
  await koa.close();
  await lean.close();
  await env.close();
});

async function get(base: string, path: string) {
  const res = await fetch(base + path);
  const headers = Object.fromEntries([...res.headers].filter(([k]) => k !== 'date' && k !== 'x-request-id'));
  return { status: res.status, body: (await res.json()) as { version?: string }, headers };
}

async function both(path: string) {
  contexts.mockClear();
  const viaLane = await get(lean.url, path);
  const laneContexts = contexts.mock.calls.length;
  const viaKoa = await get(koa.url, path);
  return { viaLane, viaKoa, laneContexts };
}

const states = (q = '', id = sessionId) => `/api/v1/sessions/${id}/seat-states${q}`;

it('answers the seat states before Koa as Koa does: in full, as a delta since a version, cacheable on success only', async () => {
  const full = await both(states());
  expect(full.laneContexts).toBe(0);
  expect(full.viaLane).toEqual(full.viaKoa);
  expect(full.viaLane.body).toMatchObject({
    full: true,
    held: expect.any(Array),
    version: expect.any(String),
  });
  expect(full.viaLane.headers['cache-control']).toBe(
    'public, max-age=1, stale-while-revalidate=2, stale-if-error=30',
  );
  const version = full.viaLane.body.version!;
  for (const q of [
    `?since=${version}`,
    '?since=not-a-version',
    `?since=${version}&since=${version}`,
    '?since=',
  ]) {
    const r = await both(states(q));
    expect(r.laneContexts).toBe(0);
    expect(r.viaLane).toEqual(r.viaKoa);
  }
  const unknown = await both(states('', '999999999'));
  expect(unknown.laneContexts).toBe(0);
  expect(unknown.viaLane.status).toBe(404);
  expect(unknown.viaLane.headers['cache-control']).toBeUndefined();
  expect(unknown.viaLane).toEqual(unknown.viaKoa);
});

it('leaves other forms of the path to Koa', async () => {
  for (const path of [`${states()}/`, states('', `0${sessionId}`), states('', 'abc')]) {
    const r = await both(path);
    expect(r.laneContexts).toBe(1);
    expect(r.viaLane).toEqual(r.viaKoa);
  }
});
