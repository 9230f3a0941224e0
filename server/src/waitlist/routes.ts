import Router from '@koa/router';
import type { Middleware } from 'koa';
import { JoinWaitlistSchema } from '@showtix/shared-types';
import type { Clock } from '../clock';
import { pathId } from '../http/path-params';
import { principal } from '../http/auth';
import { ADMIN_PREFIX, allow } from '../http/admin/http';
import { clientOf } from '../risk/client';
import type { WaitlistService } from './service';

/** The fan's waiting lists (候补): join a sold-out tier's line, see my entries, leave or decline. */
export function waitlistRoutes(waitlist: WaitlistService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: '/api/v1' });
  r.post('/sessions/:sessionId/waitlist', auth, async (ctx) => {
    const input = JoinWaitlistSchema.parse(ctx.request.body);
    const sessionId = pathId(ctx.params.sessionId);
    ctx.body = await waitlist.join(principal(ctx).userId, sessionId, input, clock.now(), clientOf(ctx));
    ctx.status = 201;
  });
  r.get('/me/waitlist', auth, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await waitlist.mine(principal(ctx).userId);
  });
  // Leaving the line; for an entry holding an offer, declining it (its order is cancelled).
  r.delete('/waitlist/:entryId', auth, async (ctx) => {
    ctx.body = await waitlist.leave(principal(ctx).userId, pathId(ctx.params.entryId), clock.now());
  });
  r.post('/waitlist/:entryId/decline', auth, async (ctx) => {
    ctx.body = await waitlist.leave(principal(ctx).userId, pathId(ctx.params.entryId), clock.now());
  });
  return r;
}

/** The organiser's view of a session's lines: size per tier (operators). */
export function waitlistAdminRoutes(waitlist: WaitlistService, auth: Middleware): Router {
  const r = new Router({ prefix: `${ADMIN_PREFIX}/sessions` });
  r.use(auth);
  r.get('/:sessionId/waitlist', allow('operator'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await waitlist.counts(pathId(ctx.params.sessionId));
  });
  return r;
}
