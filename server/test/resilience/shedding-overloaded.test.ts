import { serverForFile } from '../helpers/http';
import { holdInFlight } from '../helpers/in-flight';

/**
 * The bound of requests in flight while overloaded, on a real server: up to SHED_INFLIGHT_MAX
 * requests are admitted while the instance never had to refuse (a crowd behind a few
 * connections); once one is refused for the bound, the instance is overloaded and admits only
 * SHED_INFLIGHT_MAX_OVERLOADED, each refusal keeping it so, until SHED_OVERLOAD_HOLD_MS pass
 * without one.
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

it('admits up to the bound until it refuses once, then the smaller bound until a hold passes without a refusal', async () => {
  const held = await holdInFlight(t.api.url, inFlight, MAX - 1);
  try {
    // Never overloaded: the sixth in flight is admitted.
    expect(limit()).toBe(MAX);
    expect(await shows()).toBe(200);
    held.push(...(await holdInFlight(t.api.url, inFlight, 1)));
    // The seventh is refused: from now the instance is overloaded.
    expect(await shows()).toBe(503);
    expect(limit()).toBe(OVERLOADED);
    // Two left in flight: a third is admitted, a fourth refused, though MAX would take it.
    for (const r of held.splice(0, MAX - 2)) r.destroy();
    await waitFor(() => inFlight() === 2);
    expect(await shows()).toBe(200);
    held.push(...(await holdInFlight(t.api.url, inFlight, 1)));
    expect(await shows()).toBe(503);
    expect(limit()).toBe(OVERLOADED);
  } finally {
    for (const r of held) r.destroy();
  }
  // A hold without a refusal: the bound is MAX again, and five in flight admit a sixth.
  await waitFor(() => limit() === MAX, HOLD_MS + 3_000);
  const again = await holdInFlight(t.api.url, inFlight, MAX - 1);
  try {
    expect(await shows()).toBe(200);
  } finally {
    for (const r of again) r.destroy();
  }
});

async function waitFor(ok: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(20);
  }
}
