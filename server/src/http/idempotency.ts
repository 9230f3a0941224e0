import type { Context } from 'koa';
import { IdempotencyKeySchema } from '@showtix/shared-types';
import { appError } from '../errors';

/**
 * The request's Idempotency-Key header (purchases, exchanges): undefined when absent, a clear
 * 400 when malformed (a retry under a key we cannot use must not become a second write).
 */
export function idempotencyKeyOf(ctx: Context): string | undefined {
  return idempotencyKey(ctx.get('idempotency-key'));
}

/** The same from the header's value ('' when absent, as ctx.get reads it): the lean lane's form. */
export function idempotencyKey(header: string): string | undefined {
  if (header === '') return undefined;
  const r = IdempotencyKeySchema.safeParse(header);
  if (!r.success)
    throw appError('VALIDATION_FAILED', { header: 'Idempotency-Key' }, 'Idempotency-Key 格式不正确');
  return r.data;
}
