import Router from '@koa/router';
import type { Middleware } from 'koa';
import { SavedAttendeeSchema } from '@showtix/shared-types';
import { pathId } from '../http/path-params';
import { principal } from '../http/auth';
import type { AttendeeBook } from './service';
import { clientOf } from '../risk/client';
import type { RiskService } from '../risk/service';

export function attendeeRoutes(book: AttendeeBook, auth: Middleware, risk: RiskService): Router {
  const r = new Router({ prefix: '/api/v1/me/attendees' });
  r.use(auth);
  const limited: Middleware = async (ctx, next) => {
    await risk.guardWrite(principal(ctx).userId, clientOf(ctx));
    await next();
  };
  r.get('/', async (ctx) => {
    ctx.body = { items: await book.list(principal(ctx).userId) };
  });
  r.post('/', limited, async (ctx) => {
    ctx.status = 201;
    ctx.body = await book.add(principal(ctx).userId, SavedAttendeeSchema.parse(ctx.request.body));
  });
  r.delete('/:id', limited, async (ctx) => {
    await book.remove(principal(ctx).userId, pathId(ctx.params.id));
    ctx.status = 204;
  });
  return r;
}
