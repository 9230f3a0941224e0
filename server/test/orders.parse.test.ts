import { CreateOrderSchema } from '@showtix/shared-types';
import { ZodError } from 'zod';
import { parseCreateOrder } from '../src/orders/parse';
import { mulberry32 as rng } from './helpers/random';

const ids: unknown[] = [
  '1',
  '42',
  '123456789012345678',
  '0',
  '01',
  '1234567890123456789',
  7,
  -1,
  1.5,
  '',
  'x',
  null,
];
const seatLists: unknown[] = [
  ['1'],
  ['1', '2'],
  ['1', '1'],
  [],
  Array.from({ length: 10 }, (_, i) => String(i + 1)),
  Array.from({ length: 11 }, (_, i) => String(i + 1)),
  [3],
  ['2', 5],
  'nope',
  null,
  [null],
];
const quantities: unknown[] = [1, 2, 10, 0, 11, 1.5, '2', -1, NaN, null];
const tokens: unknown[] = ['t', 'a.b', 'x'.repeat(2048), 'x'.repeat(2049), '', 5, null];
const extras: [string, unknown][] = [
  ['attendees', []],
  ['contactPhone', '13800138000'],
  ['foo', 1],
  ['zoneId', '3'],
];

function body(r: () => number): unknown {
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  if (r() < 0.03) return pick([null, [], 'str', 5, undefined]);
  const b: Record<string, unknown> = {};
  if (r() < 0.95) b.sessionId = pick(ids);
  if (r() < 0.5) b.seatIds = pick(seatLists);
  else {
    if (r() < 0.95) b.zoneId = pick(ids);
    if (r() < 0.95) b.quantity = pick(quantities);
  }
  if (r() < 0.4) b.admissionToken = pick(tokens);
  if (r() < 0.1) {
    const [k, v] = pick(extras);
    b[k] = v;
  }
  return b;
}

it('answers every purchase body exactly as CreateOrderSchema does (value, key order, refusal)', () => {
  const r = rng(14);
  let fast = 0;
  for (let i = 0; i < 4_000; i++) {
    const b = body(r);
    const ref = CreateOrderSchema.safeParse(b);
    if (ref.success) {
      const got = parseCreateOrder(b);
      expect(JSON.stringify(got)).toBe(JSON.stringify(ref.data));
      fast++;
    } else {
      let err: unknown;
      try {
        parseCreateOrder(b);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ZodError);
      expect((err as ZodError).issues).toEqual(ref.error.issues);
    }
  }
  expect(fast).toBeGreaterThan(200);
});

it('copies the seat list (as zod does): the caller may change it', () => {
  const seatIds = ['1', '2'];
  const got = parseCreateOrder({ sessionId: '9', seatIds });
  expect(got).toEqual({ sessionId: '9', seatIds: ['1', '2'] });
  expect('seatIds' in got && got.seatIds).not.toBe(seatIds);
});
