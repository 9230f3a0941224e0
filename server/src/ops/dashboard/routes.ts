import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Clock } from '../../clock';
import { pathId } from '../../http/path-params';
import { ADMIN_PREFIX, allow } from '../../http/admin/http';
import type { DashboardService } from './service';

export function dashboardRoutes(dashboard: DashboardService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: ADMIN_PREFIX });
  r.use(auth, allow('operator'));
  r.get('/dashboard', async (ctx) => {
    ctx.body = { items: await dashboard.overview() };
  });
  // Polled every few seconds by the open dashboard page.
  r.get('/sessions/:sessionId/dashboard', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await dashboard.session(pathId(ctx.params.sessionId), clock.now());
  });
  return r;
}
