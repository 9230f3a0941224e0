import Router from '@koa/router';
import type { Middleware } from 'koa';
import { ExchangeRequestSchema, IdempotencyKeySchema } from '@showtix/shared-types';
import type { Clock } from '../clock';
import { principal } from '../http/auth';
import { appError } from '../errors';
import type { ExchangeService } from './service';

function idempotencyKey(header: string): string | undefined {
  if (header === '') return undefined;
  const r = IdempotencyKeySchema.safeParse(header);
  if (!r.success)
    throw appError('VALIDATION_FAILED', { header: 'Idempotency-Key' }, 'Idempotency-Key 格式不正确');
  return r.data;
}

/** 改签: a fan's exchange of tickets of an order, and the exchanges of an order. */
export function exchangeRoutes(exchanges: ExchangeService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: '/api/v1/orders' });
  r.use(auth);
  r.post('/:orderNo/exchange', async (ctx) => {
    const input = ExchangeRequestSchema.parse(ctx.request.body);
    const key = idempotencyKey(ctx.get('idempotency-key'));
    ctx.status = 201;
    ctx.body = await exchanges.request(principal(ctx).userId, ctx.params.orderNo!, input, key, clock.now());
  });
  r.get('/:orderNo/exchanges', async (ctx) => {
    ctx.body = await exchanges.ofOrder(principal(ctx).userId, ctx.params.orderNo!);
  });
  return r;
}
