import { AdaptiveLimit } from '../../src/http/concurrency-limit';

/**
 * The adaptive bound's rule on its own (shedding-adaptive.test.ts has it on a real server): a
 * window in which more than one answer in ten was over the target shrinks it by a fifth, any
 * other window of at least ten answers grows it by a twentieth (at least one), and it never
 * leaves [8, max].
 */
const TARGET_MS = 50;

/** One sample window: these answers (ms), then the window's decision; the limit after it. */
function windowOf(l: AdaptiveLimit, answers: number[]): number {
  for (const ms of answers) l.record(ms);
  l.update();
  return l.limit;
}

const answers = (n: number, ms: number) => Array.from({ length: n }, () => ms);

it('shrinks by a fifth after a window with more than one answer in ten over the target, down to 8', () => {
  const l = new AdaptiveLimit({ max: 256, targetMs: TARGET_MS });
  expect(l.limit).toBe(256);
  // One in ten exactly is not more than one in ten: no shrinking (and at max, no growing).
  expect(windowOf(l, [...answers(18, 1), ...answers(2, TARGET_MS + 1)])).toBe(256);
  const s = new AdaptiveLimit({ max: 256, targetMs: TARGET_MS });
  expect(windowOf(s, [...answers(17, 1), ...answers(3, TARGET_MS + 1)])).toBe(204);
  expect(windowOf(s, answers(10, 1_000))).toBe(163);
  for (let i = 0; i < 30; i++) windowOf(s, answers(10, 1_000));
  expect(s.limit).toBe(8);
});

it('grows back by a twentieth (at least one) per window within the target, never over max', () => {
  const l = new AdaptiveLimit({ max: 100, targetMs: TARGET_MS });
  for (let i = 0; i < 30; i++) windowOf(l, answers(10, 1_000));
  expect(l.limit).toBe(8);
  // Exactly the target is within it.
  expect(windowOf(l, answers(10, TARGET_MS))).toBe(9);
  for (let i = 0; i < 100; i++) windowOf(l, answers(10, 1));
  expect(l.limit).toBe(100);
});

it('decides nothing on fewer than ten answers: they are kept for the next window', () => {
  const l = new AdaptiveLimit({ max: 256, targetMs: TARGET_MS });
  expect(windowOf(l, answers(9, 1_000))).toBe(256);
  // The tenth answer arrives a window later: the nine slow ones and it decide together.
  expect(windowOf(l, answers(1, 1))).toBe(204);
});
