import Router from '@koa/router';
import type { Middleware } from 'koa';
import { SessionCancelSchema, SessionPostponeSchema } from '@showtix/shared-types';
import type { Clock } from '../clock';
import { pathId } from '../http/path-params';
import { ADMIN_PREFIX, actor, allow } from '../http/admin/http';
import type { SessionChangeService } from './service';

/** The organiser's 取消场次 / 延期场次 and the progress of their runs (operators; audited). */
export function sessionChangeRoutes(changes: SessionChangeService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: `${ADMIN_PREFIX}/sessions` });
  r.use(auth);
  r.post('/:sessionId/cancel', allow('operator'), async (ctx) => {
    const input = SessionCancelSchema.parse(ctx.request.body);
    ctx.body = await changes.cancel(actor(ctx), pathId(ctx.params.sessionId), input, clock.now());
  });
  r.post('/:sessionId/postpone', allow('operator'), async (ctx) => {
    const input = SessionPostponeSchema.parse(ctx.request.body);
    ctx.body = await changes.postpone(actor(ctx), pathId(ctx.params.sessionId), input, clock.now());
  });
  r.get('/:sessionId/changes', allow('operator'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await changes.changes(pathId(ctx.params.sessionId));
  });
  return r;
}
