import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import pino from 'pino';
import { closeDeps, createDeps, type AppDeps } from '../src/wiring';
import { createTestEnv, type TestEnv } from './helpers/env';
import { createSession, createUsers, type SessionFixture } from './helpers/fixtures';
import { startTestServer, type TestServer } from './helpers/http';

let env: TestEnv;
let api: TestServer;
let other: AppDeps;
let apiB: TestServer;
let s: SessionFixture;
let tokens: string[];

beforeAll(async () => {
  env = await createTestEnv();
  api = await startTestServer(env);
  // A second instance on the same MySQL and Redis, as behind a load balancer.
  other = await createDeps(env.config, { clock: env.clock, log: pino({ level: 'silent' }) });
  apiB = await startTestServer({ ...env, deps: other });
  s = await createSession(env.deps, {
    seats: 60,
    zones: [{ name: '内场站席', capacity: 5 }],
    purchaseLimit: 4,
  });
  const users = await createUsers(env.deps, 3);
  tokens = await Promise.all(users.map((u) => api.tokenFor(u)));
});
afterAll(async () => {
  await apiB.close();
  await closeDeps(other);
  await api.close();
  await env.close();
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/** A GET without fetch's automatic decompression, to see the bytes on the wire. */
function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const layoutPath = () => `/api/v1/sessions/${s.sessionId}/layout`;
const states = (server: TestServer, since?: string) =>
  server.call('GET', `/api/v1/sessions/${s.sessionId}/seat-states${since ? `?since=${since}` : ''}`);
const hold = (i: number, seatIds: string[]) =>
  api.call('POST', '/api/v1/orders', { token: tokens[i], body: { sessionId: s.sessionId, seatIds } });

describe('seat map layout: a static asset', () => {
  it('is served brotli or gzip as accepted, identical to the plain JSON, with its version', async () => {
    const plain = await rawGet(api.url, layoutPath());
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const body = JSON.parse(plain.bytes.toString());
    expect(body.seats).toHaveLength(60);
    expect(body.seats[0]).toEqual(
      expect.objectContaining({
        id: s.seatIds[0],
        section: 'A',
        x: expect.any(Number),
        tierId: expect.any(String),
      }),
    );
    expect(body.seats[0].state).toBeUndefined();
    expect(body.zones[0]).toEqual(expect.objectContaining({ name: '内场站席', capacity: 5 }));
    const br = await rawGet(api.url, layoutPath(), { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(brotliDecompressSync(br.bytes).equals(plain.bytes)).toBe(true);
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 3);
    const gz = await rawGet(api.url, layoutPath(), { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.bytes).equals(plain.bytes)).toBe(true);
    // The seat map names the layout's version, so the client can ask for the cacheable URL.
    const map = await api.call('GET', `/api/v1/sessions/${s.sessionId}/seatmap`);
    expect(map.body.layoutVersion).toBe(body.version);
    expect(map.body.seats[0].state).toBe('available');
  });

  it('has a strong ETag, answers 304 to If-None-Match, and caches for good only under its version', async () => {
    const first = await rawGet(api.url, layoutPath());
    const etag = first.headers.etag as string;
    const version = JSON.parse(first.bytes.toString()).version as string;
    expect(etag).toBe(`"${version}"`);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const versioned = await rawGet(api.url, `${layoutPath()}?v=${version}`, { 'accept-encoding': 'br' });
    expect(versioned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(versioned.headers.etag).toBe(etag);
    const stale = await rawGet(api.url, `${layoutPath()}?v=AAAAAAAAAAAAAAAA`);
    expect(stale.headers['cache-control']).toBe('public, no-cache');
    for (const tag of [etag, `W/${etag}`, `"x", ${etag}`]) {
      const again = await rawGet(api.url, `${layoutPath()}?v=${version}`, { 'if-none-match': tag });
      expect(again.status).toBe(304);
      expect(again.bytes.length).toBe(0);
    }
    expect((await rawGet(api.url, layoutPath(), { 'if-none-match': '"other"' })).status).toBe(200);
    // Another instance names the same layout the same way (content-addressed).
    expect((await rawGet(apiB.url, layoutPath())).headers.etag).toBe(etag);
  });

  it('is compressed once per layout version, not per request', async () => {
    const a = await env.deps.seatmaps.layout(s.sessionId);
    env.deps.catalog.forget(s.sessionId); // a reloaded catalog with the same layout
    const b = await env.deps.seatmaps.layout(s.sessionId);
    expect(b.br).toBe(a.br);
    expect(b.gzip).toBe(a.gzip);
  });

  it('answers 404 for an unknown session', async () => {
    expect((await rawGet(api.url, '/api/v1/sessions/999999/layout')).status).toBe(404);
  });
});

describe('seat states: versioned deltas', () => {
  it('keeps the full answer without since, and an empty delta when nothing changed', async () => {
    const full = await states(api);
    expect(full.body).toMatchObject({ full: true, held: [], sold: [], version: expect.any(String) });
    const layout = await api.call('GET', layoutPath());
    expect(full.body.layoutVersion).toBe(layout.body.version);
    expect(full.body.zones).toEqual([{ id: expect.any(String), available: 5 }]);
    const idle = await states(api, full.body.version);
    expect(idle.body).toEqual({
      sessionId: s.sessionId,
      version: full.body.version,
      since: full.body.version,
      full: false,
      held: [],
      sold: [],
      available: [],
      zones: full.body.zones,
      pollAfterMs: 4000, // the poll interval the server asks for (an operator may slow it down)
    });
    // The whole idle poll (status line, headers, body) stays under 1 kB.
    const raw = await rawGet(
      api.url,
      `/api/v1/sessions/${s.sessionId}/seat-states?since=${full.body.version}`,
    );
    const head = Object.entries(raw.headers).reduce((n, [k, v]) => n + k.length + String(v).length + 4, 32);
    expect(head + raw.bytes.length).toBeLessThan(1000);
  });

  it('names a seat held, sold and released in the next delta, and only it', async () => {
    const v0 = (await states(api)).body.version;
    const r = await hold(0, [s.seatIds[3]!, s.seatIds[4]!]);
    expect(r.status).toBe(201);
    const d1 = (await states(api, v0)).body;
    expect(d1).toMatchObject({
      full: false,
      since: v0,
      held: [s.seatIds[3], s.seatIds[4]].sort(),
      sold: [],
      available: [],
    });
    expect(d1.version).not.toBe(v0);

    const k = env.deps.keys.session(s.sessionId);
    const [orderId] = await env.deps.redis.hkeys(k.orders);
    expect((await env.deps.inventory.confirm(s.sessionId, orderId!, 'owned')).kind).toBe('confirmed');
    const d2 = (await states(api, d1.version)).body;
    expect(d2).toMatchObject({
      full: false,
      held: [],
      sold: [s.seatIds[3], s.seatIds[4]].sort(),
      available: [],
    });

    const r2 = await hold(1, [s.seatIds[7]!]);
    const d3 = (await states(api, d2.version)).body;
    expect(d3).toMatchObject({ held: [s.seatIds[7]], sold: [], available: [] });
    expect(
      (await api.call('POST', `/api/v1/orders/${r2.body.orderNo}/cancel`, { token: tokens[1] })).status,
    ).toBe(200);
    const d4 = (await states(api, d3.version)).body;
    expect(d4).toMatchObject({ held: [], sold: [], available: [s.seatIds[7]] });
    // From an older version the delta covers everything since then.
    const d5 = (await states(api, v0)).body;
    expect(d5).toMatchObject({
      full: false,
      held: [],
      sold: [s.seatIds[3], s.seatIds[4]].sort(),
      available: [],
    });
  });

  it('reports a hold that expired by time alone (no write) as available', async () => {
    const r = await hold(2, [s.seatIds[9]!]);
    expect(r.status).toBe(201);
    const v = (await states(api)).body.version;
    env.clock.advance(16 * 60_000);
    const d = (await states(api, v)).body;
    expect(d).toMatchObject({ full: false, available: [s.seatIds[9]], held: [], sold: [] });
  });

  it('gives the full list for an unknown, malformed or expired version', async () => {
    for (const since of ['AAAAAAAAAAAAAAAA', 'x', '../../etc', 'a'.repeat(400)]) {
      const r = await states(api, encodeURIComponent(since));
      expect(r.status).toBe(200);
      expect(r.body.full).toBe(true);
      expect(r.body.sold).toEqual(expect.arrayContaining([s.seatIds[3], s.seatIds[4]]));
    }
  });

  it('agrees across two instances: same version for the same states, and deltas from either', async () => {
    const a0 = (await states(api)).body;
    const b0 = (await states(apiB)).body;
    expect(b0.version).toBe(a0.version);
    expect(b0.sold).toEqual(a0.sold);
    await hold(2, [s.seatIds[11]!]);
    // The client saw a0 on instance A; its next poll lands on B, which never served a0.
    const other2 = await createDeps(env.config, { clock: env.clock, log: pino({ level: 'silent' }) });
    const apiC = await startTestServer({ ...env, deps: other2 });
    try {
      const d = (await states(apiC, a0.version)).body;
      expect(d).toMatchObject({ full: false, held: [s.seatIds[11]], sold: [], available: [] });
      expect(d.version).toBe((await states(api)).body.version);
    } finally {
      await apiC.close();
      await closeDeps(other2);
    }
  });
});
