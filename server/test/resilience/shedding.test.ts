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
