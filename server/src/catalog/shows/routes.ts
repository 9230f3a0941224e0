import Router from '@koa/router';
import type { Middleware } from 'koa';
import { ShowCreateSchema, ShowUpdateSchema } from '@showtix/shared-types';
import type { Clock } from '../../clock';
import { ADMIN_PREFIX, adminRoutes, allow } from '../../http/admin/http';
import type { ShowService } from './service';

export function showRoutes(shows: ShowService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: ADMIN_PREFIX });
  r.use(auth);
  const op = adminRoutes(r, clock, allow('operator'));
  // Staff managers read the show list to pick the shows their staff work at.
  r.get('/shows', allow('operator', 'staff_manager'), async (ctx) => {
    ctx.body = { items: await shows.list() };
  });
  op.create('/shows', ShowCreateSchema, (c) => shows.create(c.who, c.input, c.now));
  op.get('/shows/:showId', (c) => shows.get(c.id('showId')));
  op.patch('/shows/:showId', ShowUpdateSchema, (c) => shows.update(c.who, c.id('showId'), c.input, c.now));
  // The image itself is the body (image/jpeg, image/png or image/webp), not a multipart form.
  r.post('/uploads/poster', allow('operator'), async (ctx) => {
    const length = ctx.get('content-length');
    ctx.status = 201;
    ctx.body = await shows.uploadPoster(ctx.req, length ? Number(length) : undefined);
  });
  return r;
}
