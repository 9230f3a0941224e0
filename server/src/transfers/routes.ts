import Router from '@koa/router';
import type { Middleware } from 'koa';
import { TransferAcceptSchema, TransferCodeSchema, TransferSettingsSchema } from '@showtix/shared-types';
import type { Clock } from '../clock';
import { pathParam } from '../http/path-params';
import { appError } from '../errors';
import { principal } from '../http/auth';
import { ADMIN_PREFIX, adminRoutes, allow } from '../http/admin/http';
import { clientOf } from '../risk/client';
import type { RiskService } from '../risk/service';
import type { TransferService } from './service';

const TicketNo = /^T[2-9A-Z]{19}$/;

function ticketNo(value: string | undefined): string {
  if (!value || !TicketNo.test(value)) throw appError('NOT_FOUND', undefined, '门票不存在');
  return value;
}

const code = (value: string | undefined): string =>
  pathParam(TransferCodeSchema, value, 'TRANSFER_CODE_INVALID');

/** The fan's 转赠: offer and cancel (giver), preview and accept (receiver). */
export function transferRoutes(
  transfers: TransferService,
  auth: Middleware,
  clock: Clock,
  risk: RiskService,
): Router {
  const r = new Router({ prefix: '/api/v1' });
  r.use(auth);
  const limited: Middleware = async (ctx, next) => {
    await risk.guardWrite(principal(ctx).userId, clientOf(ctx));
    await next();
  };
  r.post('/tickets/:ticketId/transfer', limited, async (ctx) => {
    ctx.body = await transfers.offer(principal(ctx).userId, ticketNo(ctx.params.ticketId), clock.now());
  });
  r.delete('/tickets/:ticketId/transfer', limited, async (ctx) => {
    ctx.body = await transfers.cancel(principal(ctx).userId, ticketNo(ctx.params.ticketId), clock.now());
  });
  r.get('/transfers/:code', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await transfers.preview(principal(ctx).userId, code(ctx.params.code));
  });
  r.post('/transfers/:code/accept', limited, async (ctx) => {
    const c = code(ctx.params.code);
    const input = TransferAcceptSchema.parse(ctx.request.body ?? {});
    const userId = principal(ctx).userId;
    const who = { adminId: null, username: `user:${userId}`, ip: ctx.ip ?? '' };
    ctx.body = await transfers.accept(userId, who, c, input, clock.now());
  });
  return r;
}

/** The organiser's transfer rules per show, and an order's transfers (the order drawer). */
export function transferAdminRoutes(transfers: TransferService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: ADMIN_PREFIX });
  r.use(auth);
  const op = adminRoutes(r, clock, allow('operator'));
  op.get('/shows/:showId/transfer-settings', (c) => transfers.settings(c.id('showId')));
  op.put('/shows/:showId/transfer-settings', TransferSettingsSchema, (c) =>
    transfers.saveSettings(c.who, c.id('showId'), c.input, c.now),
  );
  r.get('/orders/:orderNo/transfers', allow('operator'), async (ctx) => {
    const no = ctx.params.orderNo;
    if (!no || !/^\d{6,32}$/.test(no)) throw appError('NOT_FOUND', undefined, '订单不存在');
    ctx.body = { items: await transfers.ofOrder(no) };
  });
  return r;
}
