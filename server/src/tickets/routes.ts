import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Db } from '../db/pool';
import { principal } from '../http/auth';
import { ticketsOfUser } from './views';

export function ticketRoutes(db: Db, auth: Middleware): Router {
  const r = new Router({ prefix: '/api/v1/tickets' });
  r.use(auth);
  r.get('/', async (ctx) => {
    ctx.body = { items: await ticketsOfUser(db, principal(ctx).userId) };
  });
  return r;
}
