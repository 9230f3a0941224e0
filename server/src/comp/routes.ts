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
import { pathId } from '../catalog/routes';
import { ADMIN_PREFIX, actor, allow } from '../http/admin/http';
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
  r.get('/sessions/:sessionId/reservations', allow('operator'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await reservations.view(pathId(ctx.params.sessionId));
  });
  r.post('/sessions/:sessionId/reservations/seats', allow('operator'), async (ctx) => {
    const input = ReserveSeatsSchema.parse(ctx.request.body);
    ctx.body = await reservations.reserveSeats(actor(ctx), pathId(ctx.params.sessionId), input, clock.now());
  });
  r.post('/sessions/:sessionId/reservations/seats/release', allow('operator'), async (ctx) => {
    const input = ReserveSeatsSchema.parse(ctx.request.body);
    ctx.body = await reservations.releaseSeats(actor(ctx), pathId(ctx.params.sessionId), input, clock.now());
  });
  r.put('/sessions/:sessionId/reservations/zones/:zoneId', allow('operator'), async (ctx) => {
    const { reserved } = ReserveZoneSchema.parse(ctx.request.body);
    const [sessionId, zoneId] = [pathId(ctx.params.sessionId), pathId(ctx.params.zoneId)];
    ctx.body = await reservations.setZone(actor(ctx), sessionId, zoneId, reserved, clock.now());
  });
  r.get('/sessions/:sessionId/comps', allow('operator'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await comps.list(pathId(ctx.params.sessionId));
  });
  r.post('/sessions/:sessionId/comps', allow('operator'), async (ctx) => {
    const input = CompIssueSchema.parse(ctx.request.body);
    ctx.status = 201;
    ctx.body = await comps.issue(actor(ctx), pathId(ctx.params.sessionId), input, clock.now());
  });
  r.get('/comps/:orderId', allow('operator'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await comps.get(pathId(ctx.params.orderId));
  });
  r.post('/comps/:orderId/void', allow('operator'), async (ctx) => {
    const input = CompVoidSchema.parse(ctx.request.body);
    ctx.body = await comps.void(actor(ctx), pathId(ctx.params.orderId), input, clock.now());
  });
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
