import { serverForFile } from '../helpers/http';
import { holdInFlight } from '../helpers/in-flight';

/**
 * The bound of requests in flight while overloaded, on a real server: up to SHED_INFLIGHT_MAX
 * requests are admitted while the instance never had to refuse (a crowd behind a few
 * connections); a request over that full bound makes the instance overloaded for
 * SHED_OVERLOAD_HOLD_MS, during which it admits only SHED_INFLIGHT_MAX_OVERLOADED. Refusals under
 * the smaller bound do not renew the hold: a load between the two bounds is refused for one hold
 * at most, then admitted again.
 */
const MAX = 6;
const OVERLOADED = 3;
const HOLD_MS = 2_000;
const t = serverForFile({
  SHED_INFLIGHT_MAX: String(MAX),
  SHED_INFLIGHT_MAX_OVERLOADED: String(OVERLOADED),
  SHED_OVERLOAD_HOLD_MS: String(HOLD_MS),
  // Only the fixed in-flight bounds: a busy test machine's own lag must not refuse anything here.
  SHED_EVENT_LOOP_LAG_MS: '0',
  SHED_LATENCY_TARGET_MS: '0',
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const inFlight = () => t.env.deps.lifecycle.inFlight;
const limit = () => t.env.deps.shedder.inflightLimit;
const shows = async () => (await t.api.call('GET', '/api/v1/shows')).status;

it('admits up to the full bound until a request goes over it, then the smaller bound for a hold that refusals under it do not renew', async () => {
  const held = await holdInFlight(t.api.url, inFlight, MAX - 1);
  try {
    // Never overloaded: the sixth in flight is admitted.
    expect(limit()).toBe(MAX);
    expect(await shows()).toBe(200);
    held.push(...(await holdInFlight(t.api.url, inFlight, 1)));
    // The seventh is over the full bound: refused, and from now the instance is overloaded.
    expect(await shows()).toBe(503);
    const overloadedAt = Date.now();
    expect(limit()).toBe(OVERLOADED);
    // Two left in flight: a third is admitted, a fourth refused, though MAX would take it.
    for (const r of held.splice(0, MAX - 2)) r.destroy();
    await waitFor(() => inFlight() === 2);
    expect(await shows()).toBe(200);
    held.push(...(await holdInFlight(t.api.url, inFlight, 1)));
    expect(await shows()).toBe(503);
    expect(limit()).toBe(OVERLOADED);
    // A load between the bounds, asking again and again: refused until the hold from the
    // refusal over the full bound ends (its own refusals do not renew it), then admitted.
    let refused = 0;
    let lastRefusedAt = 0;
    while (limit() === OVERLOADED && Date.now() < overloadedAt + HOLD_MS + 5_000) {
      if ((await shows()) === 503) {
        refused++;
        lastRefusedAt = Date.now();
      }
      await sleep(50);
    }
    expect(limit()).toBe(MAX);
    expect(refused).toBeGreaterThan(3);
    expect(lastRefusedAt - overloadedAt).toBeGreaterThan(HOLD_MS / 2);
    expect(inFlight()).toBe(OVERLOADED);
    expect(await shows()).toBe(200);
  } finally {
    for (const r of held) r.destroy();
  }
});

async function waitFor(ok: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(20);
  }
}
