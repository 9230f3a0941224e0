import Router from '@koa/router';
import { ListOrdersQuerySchema } from '@showtix/shared-types';
import type { Clock } from '../clock';
import { principal } from '../http/auth';
import { idempotencyKeyOf } from '../http/idempotency';
import type { Middleware } from 'koa';
import type { OrderService } from './service';
import { clientOf } from '../risk/client';
import { parseCreateOrder } from './parse';

export function orderRoutes(orders: OrderService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: '/api/v1/orders' });
  r.use(auth);
  r.post('/', async (ctx) => {
    const input = parseCreateOrder(ctx.request.body);
    const key = idempotencyKeyOf(ctx);
    ctx.status = 201;
    ctx.body = await orders.create(principal(ctx).userId, input, key, clock.now(), clientOf(ctx));
  });
  r.get('/', async (ctx) => {
    const q = ListOrdersQuerySchema.parse(ctx.query);
    ctx.body = await orders.list(principal(ctx).userId, q.status, q.before, q.limit);
  });
  r.get('/:orderNo', async (ctx) => {
    ctx.body = await orders.get(principal(ctx).userId, ctx.params.orderNo!);
  });
  r.post('/:orderNo/cancel', async (ctx) => {
    await orders.throttlePaymentCall(principal(ctx).userId, clientOf(ctx));
    ctx.body = await orders.cancel(principal(ctx).userId, ctx.params.orderNo!, clock.now());
  });
  return r;
}
