import Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import { pathId } from '../http/path-params';
import type { Clock } from '../clock';
import { appError } from '../errors';
import { ADMIN_PREFIX, actor, allow } from '../http/admin/http';
import { CASE_RESOLUTIONS, type OpsService } from './service';

const ResolveSchema = z
  .object({ resolution: z.enum(CASE_RESOLUTIONS), note: z.string().trim().min(1).max(200) })
  .strict();

function orderNo(value: string | undefined): string {
  if (!value || !/^\d{6,32}$/.test(value)) throw appError('NOT_FOUND', undefined, '订单不存在');
  return value;
}

/** The operations page (operators): recovery's leftovers and their repairs, all audited. */
export function opsRoutes(ops: OpsService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: `${ADMIN_PREFIX}/ops` });
  r.use(auth, allow('operator'));
  r.get('/', async (ctx) => {
    ctx.body = await ops.overview(clock.now());
  });
  r.post('/dead-letters/:id/requeue', async (ctx) => {
    ctx.body = await ops.deadLetter(actor(ctx), pathId(ctx.params.id), 'requeue', clock.now());
  });
  r.post('/dead-letters/:id/discard', async (ctx) => {
    ctx.body = await ops.deadLetter(actor(ctx), pathId(ctx.params.id), 'discard', clock.now());
  });
  r.post('/orders/:orderNo/issue-tickets', async (ctx) => {
    ctx.body = await ops.issueTickets(actor(ctx), orderNo(ctx.params.orderNo), clock.now());
  });
  r.post('/refunds/:refundId/retry', async (ctx) => {
    ctx.body = await ops.retryRefund(actor(ctx), pathId(ctx.params.refundId), clock.now());
  });
  r.post('/payments/:paymentId/refund', async (ctx) => {
    ctx.body = await ops.refundForeignPayment(actor(ctx), pathId(ctx.params.paymentId), clock.now());
  });
  r.post('/refund-cases/:refundId/resolve', async (ctx) => {
    const { resolution, note } = ResolveSchema.parse(ctx.request.body);
    ctx.body = await ops.resolveCase(actor(ctx), pathId(ctx.params.refundId), resolution, note, clock.now());
  });
  return r;
}
