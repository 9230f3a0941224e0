import Router from '@koa/router';
import { ListOrdersQuerySchema } from '@showtix/shared-types';
import type { Clock } from '../clock';
import { leanFan, principal, type TokenService } from '../http/auth';
import { idempotencyKey, idempotencyKeyOf } from '../http/idempotency';
import type { LeanRoute } from '../http/lean';
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

/**
 * The purchase above on the lean lane (http/lean.ts), for the flash sale's crowd, most of whom
 * are refused: its body read by the app's own parser, then the same checks in the same order
 * (the fan's token, the body, the Idempotency-Key) and the same service call, without Koa. Any
 * other form of the path (a trailing slash, another case) goes to the router above.
 */
export function purchaseLean(orders: OrderService, tokens: TokenService, clock: Clock): LeanRoute {
  return {
    method: 'POST',
    route: '/api/v1/orders',
    okStatus: 201,
    match: (pathname) => (pathname === '/api/v1/orders' ? '' : undefined),
    async handle(req) {
      const fan = leanFan(tokens, req);
      const input = parseCreateOrder(req.body);
      const key = idempotencyKey(req.header('idempotency-key'));
      return orders.create(fan.userId, input, key, clock.now(), fan.client);
    },
  };
}
