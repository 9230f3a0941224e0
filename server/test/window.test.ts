import { RateLimiterRes } from 'rate-limiter-flexible';
import { WindowCounter } from '../src/risk/window';

it('counts per key per window, refuses past the limit with the time left, and forgets old windows', async () => {
  let now = 1_000;
  const w = new WindowCounter(2, 60_000, () => now);
  await w.consume('a');
  await w.consume('a');
  await w.consume('b');
  const refused = await w.consume('a').catch((e) => e);
  expect(refused).toBeInstanceOf(RateLimiterRes);
  expect(refused.msBeforeNext).toBe(60_000);
  now += 59_999;
  expect((await w.consume('a').catch((e) => e)).msBeforeNext).toBe(1);
  now += 1;
  await expect(w.consume('a')).resolves.toBeInstanceOf(RateLimiterRes); // a new window
});

it('keeps a bounded number of counters however many keys requests make up', async () => {
  const w = new WindowCounter(5, 60_000, () => 1_000, 1_000);
  for (let i = 0; i < 5_000; i++) await w.consume(`device-${i}`);
  expect((w as unknown as { counts: { size: number } }).counts.size).toBeLessThanOrEqual(1_000);
});
