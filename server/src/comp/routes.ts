import Router from '@koa/router';
import type { Middleware } from 'koa';
import {
  CompClaimSchema,
  CompIssueSchema,
  CompVoidSchema,
  ReserveSeatsSchema,
  ReserveZoneSchema,
} from '@showtix/shared-types';
import type { Clock } from '../clock';
import { ADMIN_PREFIX, adminRoutes, allow } from '../http/admin/http';
import { principal } from '../http/auth';
import type { ReservationService } from './reservations';
import type { CompService } from './service';

/** The organiser's 预留 and 赠票 pages (operators; every change audited). */
export function compAdminRoutes(
  reservations: ReservationService,
  comps: CompService,
  auth: Middleware,
  clock: Clock,
): Router {
  const r = new Router({ prefix: ADMIN_PREFIX });
  r.use(auth);
  const op = adminRoutes(r, clock, allow('operator'));
  // What an operator reserves or issues here must show at once: never a cached copy.
  const fresh = { noStore: true };
  op.get('/sessions/:sessionId/reservations', (c) => reservations.view(c.id('sessionId')), fresh);
  op.post('/sessions/:sessionId/reservations/seats', ReserveSeatsSchema, (c) =>
    reservations.reserveSeats(c.who, c.id('sessionId'), c.input, c.now),
  );
  op.post('/sessions/:sessionId/reservations/seats/release', ReserveSeatsSchema, (c) =>
    reservations.releaseSeats(c.who, c.id('sessionId'), c.input, c.now),
  );
  op.put('/sessions/:sessionId/reservations/zones/:zoneId', ReserveZoneSchema, (c) =>
    reservations.setZone(c.who, c.id('sessionId'), c.id('zoneId'), c.input.reserved, c.now),
  );
  op.get('/sessions/:sessionId/comps', (c) => comps.list(c.id('sessionId')), fresh);
  op.create('/sessions/:sessionId/comps', CompIssueSchema, (c) =>
    comps.issue(c.who, c.id('sessionId'), c.input, c.now),
  );
  op.get('/comps/:orderId', (c) => comps.get(c.id('orderId')), fresh);
  op.post('/comps/:orderId/void', CompVoidSchema, (c) => comps.void(c.who, c.id('orderId'), c.input, c.now));
  return r;
}

/** The person's side: 领取赠票 in the mini-program (signed in with WeChat). */
export function compClaimRoutes(comps: CompService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: '/api/v1' });
  r.post('/comps/claim', auth, async (ctx) => {
    const { code } = CompClaimSchema.parse(ctx.request.body);
    ctx.body = await comps.claim(principal(ctx).userId, code, clock.now());
  });
  return r;
}
