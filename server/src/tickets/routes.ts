import Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import type { Db } from '../db/pool';
import { principal } from '../http/auth';
import { clientOf } from '../risk/client';
import { ticketsOfUser } from './views';
import type { BindingService } from './bindings';
import type { Clock } from '../clock';
import type { TransferService } from '../transfers/service';

const Key = z.string().regex(/^[\w-]{43}$/, '32 bytes, base64url');
const BindSchema = z.strictObject({ publicKey: Key, manualKey: Key });
const TicketNo = z.string().regex(/^T[2-9A-Z]{19}$/);

export function ticketRoutes(
  db: Db,
  bindings: BindingService,
  auth: Middleware,
  clock: Clock,
  transfers?: TransferService,
): Router {
  const r = new Router({ prefix: '/api/v1/tickets' });
  r.use(auth);
  r.get('/', async (ctx) => {
    const userId = principal(ctx).userId;
    const offers = transfers ? await transfers.openOffers(userId) : undefined;
    ctx.body = { items: await ticketsOfUser(db, bindings, userId, clock.now(), offers) };
  });
  /** Binds this device's key to the ticket (a re-bind when another device held it). */
  r.post('/:ticketId/bind', async (ctx) => {
    const ticketNo = TicketNo.parse(ctx.params.ticketId);
    const input = BindSchema.parse(ctx.request.body);
    ctx.body = await bindings.bind(principal(ctx).userId, clientOf(ctx), ticketNo, input, clock.now());
  });
  return r;
}
