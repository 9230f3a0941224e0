import { serverForFile } from '../helpers/http';
import { startNginx, type Nginx } from '../helpers/nginx';
import { createSession, type SessionFixture } from '../helpers/fixtures';
import { PUBLIC_BRIEF_CACHE } from '../../src/catalog/routes';

/**
 * Behind the deployment's nginx (deploy/nginx/showtix.conf.template), the catalog's reads (shows,
 * sessions, seat states, the versioned layout) are micro-cached: a crowd's simultaneous requests
 * cost the API one, errors are never kept, and while no instance answers, the last seat states
 * are served for up to 30 s.
 */
const t = serverForFile();
let nginx: Nginx;
let s: SessionFixture;
beforeAll(async () => {
  s = await createSession(t.env.deps, { seats: 40 });
  nginx = await startNginx(new URL(t.api.url).host);
});
afterAll(async () => {
  await nginx?.close();
});

const STATES_ROUTE = '/api/v1/sessions/:sessionId/seat-states';

/** Seat-states requests the API itself answered (its request histogram's count for the route). */
async function upstreamPolls(): Promise<number> {
  const { values } = await t.env.deps.metrics.httpDuration.get();
  return values
    .filter((v) => v.metricName === 'http_request_duration_seconds_count' && v.labels.route === STATES_ROUTE)
    .reduce((sum, v) => sum + v.value, 0);
}

async function viaNginx(path: string): Promise<{ status: number; cache: string | null; body: string }> {
  const res = await fetch(nginx.url + path);
  return { status: res.status, cache: res.headers.get('x-cache-status'), body: await res.text() };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('the catalog says it may be cached briefly by anyone (it carries no user); an error does not', async () => {
  for (const path of [
    '/api/v1/shows',
    `/api/v1/sessions/${s.sessionId}`,
    `/api/v1/sessions/${s.sessionId}/seat-states`,
  ]) {
    const res = await t.api.call('GET', path);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(PUBLIC_BRIEF_CACHE);
  }
  const missing = await t.api.call('GET', '/api/v1/sessions/999999999');
  expect(missing.status).toBe(404);
  expect(missing.headers.get('cache-control')).toBeNull();
});

it("the session page's read is kept for the crowd; a 404 is asked again each time", async () => {
  const path = `/api/v1/sessions/${s.sessionId}`;
  const first = await viaNginx(path);
  expect(first.status).toBe(200);
  expect(first.cache).toBe('MISS');
  const second = await viaNginx(path);
  expect(second.cache).toBe('HIT');
  expect(second.body).toBe(first.body);
  for (let i = 0; i < 2; i++) {
    const missing = await viaNginx('/api/v1/sessions/999999999');
    expect(missing.status).toBe(404);
    expect(missing.cache).toBe('MISS');
  }
});

it("a crowd's simultaneous polls of one URL cost the API one request", async () => {
  const full = await t.api.call('GET', `/api/v1/sessions/${s.sessionId}/seat-states`);
  const path = `/api/v1/sessions/${s.sessionId}/seat-states?since=${full.body.version}`;
  const before = await upstreamPolls();
  const answers = await Promise.all(Array.from({ length: 20 }, () => viaNginx(path)));
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
  expect(new Set(answers.map((a) => a.body)).size).toBe(1);
  expect(answers.filter((a) => a.cache === 'MISS')).toHaveLength(1);
  expect((await upstreamPolls()) - before).toBe(1);
  // Once it has expired (nginx counts max-age in whole seconds: 1 to 2 s), the next poll asks the API again.
  await sleep(2_100);
  await viaNginx(path);
  await sleep(200);
  expect((await upstreamPolls()) - before).toBe(2);
});

it('a versioned layout is cached; the plain URL (which may change) is not', async () => {
  const plain = await viaNginx(`/api/v1/sessions/${s.sessionId}/layout`);
  expect(plain.status).toBe(200);
  const { version } = JSON.parse(plain.body) as { version: string };
  expect((await viaNginx(`/api/v1/sessions/${s.sessionId}/layout`)).cache).toBe('MISS');
  const versioned = `/api/v1/sessions/${s.sessionId}/layout?v=${version}`;
  expect((await viaNginx(versioned)).cache).toBe('MISS');
  expect((await viaNginx(versioned)).cache).toBe('HIT');
});

it('while no instance answers, the last seat states are still served (stale-if-error)', async () => {
  const path = `/api/v1/sessions/${s.sessionId}/seat-states`;
  const live = await viaNginx(path);
  expect(live.status).toBe(200);
  await t.api.close();
  // Past max-age and stale-while-revalidate both (nginx's whole seconds: at most 1 + 1 + 2 s).
  await sleep(4_500);
  const stale = await viaNginx(path);
  expect(stale.status).toBe(200);
  expect(stale.cache).toBe('STALE');
  expect(stale.body).toBe(live.body);
  // Any other path still fails: only what the server marked cacheable is kept.
  expect((await viaNginx('/api/v1/shows')).status).toBe(502);
});
