import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Db } from '../db/pool';
import { principal } from '../http/auth';
import { ticketsOfUser } from './views';
import type { TicketKeys } from './keys';
import type { Clock } from '../clock';

export function ticketRoutes(db: Db, keys: TicketKeys, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: '/api/v1/tickets' });
  r.use(auth);
  r.get('/', async (ctx) => {
    ctx.body = { items: await ticketsOfUser(db, keys, principal(ctx).userId, clock.now()) };
  });
  return r;
}
