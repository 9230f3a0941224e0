import Router from '@koa/router';
import type { Middleware } from 'koa';
import { ExchangeRequestSchema } from '@showtix/shared-types';
import type { Clock } from '../clock';
import { principal } from '../http/auth';
import { idempotencyKeyOf } from '../http/idempotency';
import type { ExchangeService } from './service';

/** 改签: a fan's exchange of tickets of an order, and the exchanges of an order. */
export function exchangeRoutes(exchanges: ExchangeService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: '/api/v1/orders' });
  r.use(auth);
  r.post('/:orderNo/exchange', async (ctx) => {
    const input = ExchangeRequestSchema.parse(ctx.request.body);
    const key = idempotencyKeyOf(ctx);
    ctx.status = 201;
    ctx.body = await exchanges.request(principal(ctx).userId, ctx.params.orderNo!, input, key, clock.now());
  });
  r.get('/:orderNo/exchanges', async (ctx) => {
    ctx.body = await exchanges.ofOrder(principal(ctx).userId, ctx.params.orderNo!);
  });
  return r;
}
