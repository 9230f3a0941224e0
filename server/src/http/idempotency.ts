import type { Context } from 'koa';
import { IDEMPOTENCY_KEY_PATTERN } from '@showtix/shared-types';
import { appError } from '../errors';

/**
 * The request's Idempotency-Key header (purchases, exchanges): undefined when absent, a clear
 * 400 when malformed (a retry under a key we cannot use must not become a second write).
 */
export function idempotencyKeyOf(ctx: Context): string | undefined {
  return idempotencyKey(ctx.get('idempotency-key'));
}

/**
 * The same from the header's value ('' when absent, as ctx.get reads it): the lean lane's form.
 * IdempotencyKeySchema's pattern, tested directly: the header is always a string, which the
 * schema returns as it is, and its safeParse (a result object, and a ZodError with its issues
 * for a malformed key) ran on every purchase: 6.5% of the busy time of a profile of the
 * purchase route's floor (bench ab --cases floor, 2026-12-06), whose requests carry a malformed key.
 */
export function idempotencyKey(header: string): string | undefined {
  if (header === '') return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(header))
    throw appError('VALIDATION_FAILED', { header: 'Idempotency-Key' }, 'Idempotency-Key 格式不正确');
  return header;
}
