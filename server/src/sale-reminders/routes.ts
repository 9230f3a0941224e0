import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Clock } from '../clock';
import { pathId } from '../http/path-params';
import { principal } from '../http/auth';
import type { SaleReminderService } from './service';

/** 开售提醒: set or cancel a show's reminder, and the fan's list (我的). */
export function saleReminderRoutes(reminders: SaleReminderService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: '/api/v1' });
  r.post('/shows/:showId/sale-reminder', auth, async (ctx) => {
    ctx.body = await reminders.add(principal(ctx).userId, pathId(ctx.params.showId), clock.now());
  });
  r.delete('/shows/:showId/sale-reminder', auth, async (ctx) => {
    ctx.body = await reminders.remove(principal(ctx).userId, pathId(ctx.params.showId));
  });
  r.get('/me/sale-reminders', auth, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await reminders.mine(principal(ctx).userId);
  });
  return r;
}
