import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import type { KeyObject } from 'node:crypto';
import { RefundRequestSchema } from '@showtix/shared-types';
import type { Clock } from '../clock';
import { principal } from '../http/auth';
import { clientOf } from '../risk/client';
import { NotificationRejected, readNotification } from '../wechat/notification';
import type { WxRefund, WxTransaction } from '../wechat/pay';
import type { RefundService } from '../refunds/service';
import type { OrderService } from '../orders/service';
import { SuspiciousPayment, type PaymentService } from './service';

export interface PaymentRouteDeps {
  payments: PaymentService;
  refunds: RefundService;
  orders: OrderService;
  auth: Middleware;
  clock: Clock;
  trusted: Map<string, KeyObject>;
  apiV3Key: string;
  log: Logger;
}

/** Fan-facing: pay and refund an order. */
export function payRoutes(d: PaymentRouteDeps): Router {
  const r = new Router({ prefix: '/api/v1/orders' });
  r.use(d.auth);
  r.post('/:orderNo/pay', async (ctx) => {
    await d.orders.throttlePaymentCall(principal(ctx).userId, clientOf(ctx));
    ctx.body = await d.payments.prepay(principal(ctx).userId, ctx.params.orderNo!, d.clock.now(), '演出门票');
  });
  r.post('/:orderNo/refund', async (ctx) => {
    const body = RefundRequestSchema.parse(ctx.request.body ?? {});
    ctx.body = await d.orders.requestRefund(principal(ctx).userId, ctx.params.orderNo!, body, d.clock.now());
  });
  return r;
}

/**
 * WeChat's callbacks. Success is 204 with no body, and only after our transaction committed;
 * any failure is 4xx/5xx {"code":"FAIL","message":...}, which makes WeChat retry later.
 */
export function notifyRoutes(d: PaymentRouteDeps): Router {
  const r = new Router({ prefix: '/api/v1/pay/wechat' });
  const handle = (apply: (resource: any) => Promise<unknown>) => async (ctx: Context) => {
    try {
      const raw = (ctx.request as { rawBody?: string }).rawBody;
      const n = readNotification<any>(ctx.headers, raw, d.trusted, d.apiV3Key, d.clock.now().getTime());
      await apply(n);
      ctx.status = 204;
    } catch (err) {
      const status =
        err instanceof NotificationRejected ? err.status : err instanceof SuspiciousPayment ? 400 : 500;
      if (status === 500)
        d.log.error({ err, path: ctx.path }, 'notification handling failed; WeChat will retry');
      ctx.status = status;
      ctx.body = { code: 'FAIL', message: status === 500 ? 'internal error' : (err as Error).message };
    }
  };
  r.post(
    '/notify',
    handle(async (n: { eventType: string; resource: WxTransaction }) => {
      if (n.eventType !== 'TRANSACTION.SUCCESS') return; // nothing else changes an order
      await d.payments.applyNotified(n.resource, d.clock.now());
    }),
  );
  r.post(
    '/refund-notify',
    handle(async (n: { resource: WxRefund }) => {
      await d.refunds.applyResult(n.resource, d.clock.now());
    }),
  );
  return r;
}
