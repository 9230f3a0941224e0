import Router from '@koa/router';
import type { Middleware } from 'koa';
import { ShowCreateSchema, ShowUpdateSchema } from '@showtix/shared-types';
import type { Clock } from '../../clock';
import { pathId } from '../routes';
import { ADMIN_PREFIX, actor, allow } from '../../http/admin/http';
import type { ShowService } from './service';

export function showRoutes(shows: ShowService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: ADMIN_PREFIX });
  r.use(auth);
  // Staff managers read the show list to pick the shows their staff work at.
  r.get('/shows', allow('operator', 'staff_manager'), async (ctx) => {
    ctx.body = { items: await shows.list() };
  });
  r.post('/shows', allow('operator'), async (ctx) => {
    const input = ShowCreateSchema.parse(ctx.request.body);
    ctx.status = 201;
    ctx.body = await shows.create(actor(ctx), input, clock.now());
  });
  r.get('/shows/:showId', allow('operator'), async (ctx) => {
    ctx.body = await shows.get(pathId(ctx.params.showId));
  });
  r.patch('/shows/:showId', allow('operator'), async (ctx) => {
    const input = ShowUpdateSchema.parse(ctx.request.body);
    ctx.body = await shows.update(actor(ctx), pathId(ctx.params.showId), input, clock.now());
  });
  // The image itself is the body (image/jpeg, image/png or image/webp), not a multipart form.
  r.post('/uploads/poster', allow('operator'), async (ctx) => {
    const length = ctx.get('content-length');
    ctx.status = 201;
    ctx.body = await shows.uploadPoster(ctx.req, length ? Number(length) : undefined);
  });
  return r;
}
