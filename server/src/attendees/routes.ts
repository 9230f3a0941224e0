import Router from '@koa/router';
import type { Middleware } from 'koa';
import { SavedAttendeeSchema } from '@showtix/shared-types';
import { pathId } from '../catalog/routes';
import { principal } from '../http/auth';
import type { AttendeeBook } from './service';

export function attendeeRoutes(book: AttendeeBook, auth: Middleware): Router {
  const r = new Router({ prefix: '/api/v1/me/attendees' });
  r.use(auth);
  r.get('/', async (ctx) => {
    ctx.body = { items: await book.list(principal(ctx).userId) };
  });
  r.post('/', async (ctx) => {
    ctx.status = 201;
    ctx.body = await book.add(principal(ctx).userId, SavedAttendeeSchema.parse(ctx.request.body));
  });
  r.delete('/:id', async (ctx) => {
    await book.remove(principal(ctx).userId, pathId(ctx.params.id));
    ctx.status = 204;
  });
  return r;
}
