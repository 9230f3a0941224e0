import Router from '@koa/router';
import type { Middleware } from 'koa';
import { SessionCreateSchema, SessionUpdateSchema, TiersUpdateSchema } from '@showtix/shared-types';
import type { Clock } from '../../clock';
import { pathId } from '../routes';
import { ADMIN_PREFIX, actor, allow } from '../../http/admin/http';
import type { SessionService } from './service';

export function sessionRoutes(sessions: SessionService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: ADMIN_PREFIX });
  r.use(auth);
  r.post('/shows/:showId/sessions', allow('operator'), async (ctx) => {
    const input = SessionCreateSchema.parse(ctx.request.body);
    ctx.status = 201;
    ctx.body = await sessions.create(actor(ctx), pathId(ctx.params.showId), input, clock.now());
  });
  r.get('/sessions/:sessionId', allow('operator'), async (ctx) => {
    ctx.body = await sessions.get(pathId(ctx.params.sessionId));
  });
  r.patch('/sessions/:sessionId', allow('operator'), async (ctx) => {
    const input = SessionUpdateSchema.parse(ctx.request.body);
    ctx.body = await sessions.update(actor(ctx), pathId(ctx.params.sessionId), input, clock.now());
  });
  r.put('/sessions/:sessionId/tiers', allow('operator'), async (ctx) => {
    const { tiers } = TiersUpdateSchema.parse(ctx.request.body);
    ctx.body = await sessions.setTiers(actor(ctx), pathId(ctx.params.sessionId), tiers, clock.now());
  });
  r.post('/sessions/:sessionId/open', allow('operator'), async (ctx) => {
    ctx.body = await sessions.open(actor(ctx), pathId(ctx.params.sessionId), clock.now());
  });
  r.post('/sessions/:sessionId/end', allow('operator'), async (ctx) => {
    ctx.body = await sessions.end(actor(ctx), pathId(ctx.params.sessionId), clock.now());
  });
  r.get('/sessions/:sessionId/seatmap', allow('operator'), async (ctx) => {
    ctx.body = await sessions.seatMap(pathId(ctx.params.sessionId), clock.now());
  });
  return r;
}
