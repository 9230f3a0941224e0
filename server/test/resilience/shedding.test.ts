import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import Koa from 'koa';
import { serverForFile } from '../helpers/http';
import { holdInFlight } from '../helpers/in-flight';

/**
 * Shedding on a real server: saturated by requests in flight, or by a blocked event loop, it
 * refuses at once with 503 OVERLOADED and Retry-After (never the probes or the admin API), and
 * takes requests again as soon as the saturation ends.
 */
const INFLIGHT_MAX = 5;
const t = serverForFile({
  SHED_INFLIGHT_MAX: String(INFLIGHT_MAX),
  SHED_EVENT_LOOP_LAG_MS: '100',
  SHED_RETRY_AFTER_S: '2',
  // A fixed bound here (the adaptive one has its own test: shedding-adaptive.test.ts).
  SHED_LATENCY_TARGET_MS: '0',
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The status of a fan request once the instance takes them again (polled: a busy test machine lags too). */
async function recovers(): Promise<number> {
  const end = Date.now() + 5_000;
  for (;;) {
    await sleep(100);
    const status = (await t.api.call('GET', '/api/v1/shows')).status;
    if (status !== 503 || Date.now() > end) return status;
  }
}

it('refuses with 503 OVERLOADED + Retry-After once the bound of requests in flight is reached, then recovers', async () => {
  const slow = await holdInFlight(t.api.url, () => t.env.deps.lifecycle.inFlight, INFLIGHT_MAX);
  try {
    expect(t.env.deps.lifecycle.inFlight).toBe(INFLIGHT_MAX);
    // This one would be the sixth in flight.
    const refused = await t.api.call('GET', '/api/v1/shows');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(refused.body).toEqual({ error: { code: 'OVERLOADED', message: '当前访问人数过多，请稍后再试' } });
    // Probes, metrics and the admin API (the switches that end an overload) are never refused.
    expect((await t.api.call('GET', '/livez')).status).toBe(200);
    expect((await t.api.call('GET', '/readyz')).status).toBe(200);
    expect((await t.api.call('GET', '/api/v1/admin/degrade')).status).toBe(401);
    expect(t.env.deps.shedder.refused).toBeGreaterThanOrEqual(1);
  } finally {
    for (const r of slow) r.destroy();
  }
  expect(await recovers()).toBe(200);
});

it('refuses while the event loop lags over the bound (sustained), then recovers', async () => {
  // Busy the loop for ~250 ms at a time for a second: every sample window sees the lag.
  const end = Date.now() + 1_000;
  while (Date.now() < end) {
    const stop = Date.now() + 250;
    while (Date.now() < stop) {
      /* the CPU-bound work a saturated instance would be doing */
    }
    await new Promise((r) => setTimeout(r, 0));
  }
  expect(t.env.deps.shedder.lagMs).toBeGreaterThan(100);
  const refused = await t.api.call('GET', '/api/v1/shows');
  expect(refused.status).toBe(503);
  expect(refused.body.error.code).toBe('OVERLOADED');
  expect(refused.headers.get('retry-after')).toBe('2');
  // Idle again: two quiet windows later the lag is back under the bound.
  expect(await recovers()).toBe(200);
  expect(t.env.deps.shedder.lagMs).toBeLessThan(100);
});

/** One request on `agent`: its status, headers, body, and whether it reused a kept-alive socket. */
function send(
  agent: Agent,
  method: string,
  path: string,
  o: { body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: IncomingMessage['headers']; body: string; reused: boolean }> {
  return new Promise((resolve, reject) => {
    // An absolute `path` is sent as it is: the absolute form of a request target.
    const target = { method, agent, headers: o.headers ?? {}, path };
    const req = httpRequest(t.api.url, target, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body, reused: req.reusedSocket }),
      );
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

const OVERLOADED_METRIC = async () =>
  (await t.env.deps.metrics.errors.get()).values.find((v) => v.labels.code === 'OVERLOADED')?.value ?? 0;

it("answers a saturated instance's 503 before Koa: no context is built, the request id and the metrics are kept, and the kept-alive connection serves the next request", async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const contexts = jest.spyOn(Koa.prototype, 'createContext');
  const slow = await holdInFlight(t.api.url, () => t.env.deps.lifecycle.inFlight, INFLIGHT_MAX);
  try {
    // After the hold: on a busy machine one of its requests may have been refused (and counted).
    const countedBefore = await OVERLOADED_METRIC();
    contexts.mockClear();
    // A purchase with its body, as a fan's would be: refused without anything of it being read.
    const refused = await send(agent, 'POST', '/api/v1/orders', {
      headers: { 'content-type': 'application/json', 'x-request-id': 'trace-0123456789' },
      body: JSON.stringify({ sessionId: '1', seatIds: ['1', '2'] }),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('2');
    expect(refused.headers['x-request-id']).toBe('trace-0123456789');
    expect(JSON.parse(refused.body)).toEqual({
      error: { code: 'OVERLOADED', message: '当前访问人数过多，请稍后再试' },
    });
    // Through Koa, the refusal built a context and ran four middlewares first (issue 14).
    expect(contexts).not.toHaveBeenCalled();
    expect(await OVERLOADED_METRIC()).toBe(countedBefore + 1);
    // A probe is never refused, early or late, whatever form its request target takes.
    expect((await send(agent, 'GET', '/livez')).status).toBe(200);
    expect((await send(agent, 'GET', '/readyz?verbose=1')).status).toBe(200);
    expect((await send(agent, 'GET', `${t.api.url}/livez`)).status).toBe(200);
    expect((await send(agent, 'GET', `${t.api.url}/api/v1/shows`)).status).toBe(503);
  } finally {
    for (const r of slow) r.destroy();
    contexts.mockRestore();
  }
  expect(await recovers()).toBe(200);
  // The refused request's body was drained: the same connection carries the next request.
  const next = await send(agent, 'GET', '/api/v1/shows');
  expect(next.status).toBe(200);
  expect(next.reused).toBe(true);
  agent.destroy();
});
