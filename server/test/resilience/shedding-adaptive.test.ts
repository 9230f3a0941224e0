import { serverForFile } from '../helpers/http';
import { holdInFlight } from '../helpers/in-flight';
import { createSession, createUsers } from '../helpers/fixtures';

/**
 * The adaptive bound of requests in flight on a real server: answers slower than the latency
 * target shrink it below SHED_INFLIGHT_MAX, so an instance refuses (503 OVERLOADED + Retry-After)
 * with fewer requests in flight; a purchase refused so changed nothing; fast answers grow the
 * bound back towards SHED_INFLIGHT_MAX.
 */
const MAX = 40;
// Far over what a list of shows takes even on a busy test machine.
const TARGET_MS = 500;
const t = serverForFile({
  SHED_INFLIGHT_MAX: String(MAX),
  SHED_LATENCY_TARGET_MS: String(TARGET_MS),
  // Only the in-flight bound: a busy test machine's own lag must not refuse anything here.
  SHED_EVENT_LOOP_LAG_MS: '0',
  SHED_RETRY_AFTER_S: '3',
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const inFlight = () => t.env.deps.lifecycle.inFlight;
const limit = () => t.env.deps.shedder.inflightLimit;

/** The bound once it differs from `from` (polled over a few sample windows), or `from` still. */
async function limitAfter(from: number, ms = 3_000): Promise<number> {
  const end = Date.now() + ms;
  while (limit() === from && Date.now() < end) await sleep(20);
  return limit();
}

/** Twelve purchases whose answers take twice the target: held in flight, then dropped together. */
async function slowAnswers(): Promise<void> {
  const held = await holdInFlight(t.api.url, inFlight, 12);
  await sleep(2 * TARGET_MS);
  for (const r of held) r.destroy();
}

it('shrinks the bound while answers are slow, refuses under it with nothing changed, grows back when fast', async () => {
  expect(limit()).toBe(MAX);
  // Slow windows: each takes a fifth off, down to fewer than twelve (40, 32, 25, 20, 16, 12, 9).
  while (limit() >= 12) {
    const before = limit();
    await slowAnswers();
    expect(await limitAfter(before)).toBeLessThan(before);
  }
  const low = limit();
  expect(low).toBeGreaterThanOrEqual(8);
  // Operators see it on /metrics.
  expect((await t.api.call('GET', '/metrics')).body).toContain(`shed_inflight_limit ${low}\n`);

  const s = await createSession(t.env.deps, { seats: 4 });
  const [userId] = await createUsers(t.env.deps, 1);
  const token = await t.api.tokenFor(userId);
  const buy = () =>
    t.api.call('POST', '/api/v1/orders', {
      token,
      headers: { 'idempotency-key': 'adaptive-shed-1' },
      body: { sessionId: s.sessionId, seatIds: [s.seatIds[0]] },
    });
  const held = await holdInFlight(t.api.url, inFlight, low);
  try {
    // One more than the bound, far below SHED_INFLIGHT_MAX: refused before anything ran.
    expect(inFlight()).toBeLessThan(MAX);
    const refused = await buy();
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('OVERLOADED');
    expect(refused.headers.get('retry-after')).toBe('3');
    expect((await t.api.call('GET', '/livez')).status).toBe(200);
  } finally {
    for (const r of held) r.destroy();
  }

  // Fast answers again: the bound climbs back (one step per sample window of ten answers; a few
  // steps are enough here, a busy test machine may answer one window slowly now and then).
  const end = Date.now() + 20_000;
  while (limit() < low + 5 && Date.now() < end)
    await Promise.all(Array.from({ length: 10 }, () => t.api.call('GET', '/api/v1/shows')));
  expect(limit()).toBeGreaterThanOrEqual(low + 5);
  expect(limit()).toBeLessThanOrEqual(MAX);
  // The refused purchase held nothing and kept no answer under its key: the same one succeeds now.
  const bought = await buy();
  expect(bought.status).toBe(201);
  expect(bought.body.items).toHaveLength(1);
});
