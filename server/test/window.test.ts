import { WindowCounter } from '../src/risk/window';
import { PathLimiter, WITHIN_LIMITS } from '../src/risk/limits';
import { Keys } from '../src/redis/keys';

it('counts per key per window, refuses past the limit with the time left, and forgets old windows', () => {
  let now = 1_000;
  const w = new WindowCounter(2, 60_000, () => now);
  expect(w.take('a')).toBe(0);
  expect(w.take('a')).toBe(0);
  expect(w.take('b')).toBe(0);
  expect(w.take('a')).toBe(60_000);
  now += 59_999;
  expect(w.take('a')).toBe(1);
  now += 1;
  expect(w.take('a')).toBe(0); // a new window
});

it('keeps a bounded number of counters however many keys requests make up', () => {
  const w = new WindowCounter(5, 60_000, () => 1_000, 1_000);
  for (let i = 0; i < 5_000; i++) w.take(`device-${i}`);
  expect((w as unknown as { counts: { size: number } }).counts.size).toBeLessThanOrEqual(1_000);
});

describe('a path limit kept in memory (the purchase, the join, the poll)', () => {
  const limiter = () =>
    new PathLimiter(
      undefined as never,
      'p:',
      'poll',
      {
        user: { points: 2, durationS: 60 },
        ip: { points: 4, durationS: 10 },
        device: { points: 0, durationS: 60 },
      },
      'memory',
    );

  it('answers a request within its limits with the one settled promise: nothing allocated', async () => {
    const l = limiter();
    const client = { ip: '10.0.0.1', device: 'd1' };
    expect(l.consume('u1', client)).toBe(WITHIN_LIMITS);
    expect(l.consume('u1', client)).toBe(WITHIN_LIMITS);
    await expect(l.consume('u1', client)).rejects.toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
      headers: { 'Retry-After': '60' }, // the longest wait of the dimensions used up
    });
    // Every dimension counted that request too: the address has one point left, then none.
    expect(l.consume('u2', client)).toBe(WITHIN_LIMITS);
    await expect(l.consume('u3', client)).rejects.toMatchObject({ headers: { 'Retry-After': '10' } });
  });

  it('counts no dimension a request has no subject for', () => {
    const l = limiter();
    for (let i = 0; i < 5; i++)
      expect(l.consume(`u${i}`, { ip: undefined, device: undefined })).toBe(WITHIN_LIMITS);
  });
});

it('the key names of a session are built once and shared, frozen; other sessions have their own', () => {
  const keys = new Keys('p:');
  const a = keys.session('7');
  expect(keys.session('7')).toBe(a);
  expect(Object.isFrozen(a) && Object.isFrozen(a.queue)).toBe(true);
  expect(keys.session('8').seats).toBe('p:{s:8}:seats');
  expect(a.rate('u', '42')).toBe('p:{s:7}:rl:u:42');
  // However many ids are asked for, the names stay right (the memory starts over past its bound).
  for (let i = 0; i < 10_000; i++) keys.session(String(i));
  const again = keys.session('7');
  expect([again.seats, again.queue.line, again.cooldown('9')]).toEqual([
    a.seats,
    a.queue.line,
    a.cooldown('9'),
  ]);
  expect((keys as unknown as { sessions: Map<string, unknown> }).sessions.size).toBeLessThanOrEqual(4096);
});
