import { IdempotencyKeySchema } from '@showtix/shared-types';
import { AppError } from '../src/errors';
import { idempotencyKey } from '../src/http/idempotency';
import { mulberry32 as rng } from './helpers/random';

// Allowed characters, then some that are not (space, '/', '!', a newline, CJK, an emoji half).
const ALPHABET = 'aZ09_.:-' + ' /!\n\u4e2d\ud83d';

function key(r: () => number): string {
  const length = Math.floor(r() * 140);
  let s = '';
  for (let i = 0; i < length; i++) {
    // Mostly allowed characters, so that both answers are common.
    const at = r() < 0.97 ? Math.floor(r() * 8) : 8 + Math.floor(r() * (ALPHABET.length - 8));
    s += ALPHABET[at];
  }
  return s;
}

it('answers every Idempotency-Key header exactly as IdempotencyKeySchema does', () => {
  const r = rng(20261206);
  let accepted = 0;
  let refused = 0;
  for (let i = 0; i < 20_000; i++) {
    const header = i < 3 ? ['a'.repeat(8), 'a'.repeat(128), 'a'.repeat(129)][i]! : key(r);
    if (header === '') {
      expect(idempotencyKey(header)).toBeUndefined();
      continue;
    }
    const schema = IdempotencyKeySchema.safeParse(header);
    if (schema.success) {
      expect(idempotencyKey(header)).toBe(schema.data);
      accepted++;
    } else {
      expect(() => idempotencyKey(header)).toThrow(AppError);
      refused++;
    }
  }
  // Both sides of the pattern were exercised, not one.
  expect(accepted).toBeGreaterThan(1_000);
  expect(refused).toBeGreaterThan(1_000);
});

it('refuses a malformed key with the 400 the API documents', () => {
  try {
    idempotencyKey('short');
    throw new Error('accepted');
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('VALIDATION_FAILED');
    expect((err as AppError).status).toBe(400);
    expect((err as AppError).details).toEqual({ header: 'Idempotency-Key' });
  }
});
