import Router from '@koa/router';
import type { Middleware } from 'koa';
import { BlockCreateSchema } from '@showtix/shared-types';
import type { Clock } from '../../clock';
import { pathId } from '../../http/path-params';
import { ADMIN_PREFIX, actor, adminRoutes, allow } from '../../http/admin/http';
import type { RiskAdminService } from './service';

export function riskRoutes(risk: RiskAdminService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: `${ADMIN_PREFIX}/risk` });
  r.use(auth, allow('operator'));
  const op = adminRoutes(r, clock);
  op.get('/blocklist', async () => ({ items: await risk.blocklist() }));
  op.create('/blocklist', BlockCreateSchema, (c) => risk.block(c.who, c.input, c.now));
  r.delete('/blocklist/:entryId', async (ctx) => {
    await risk.unblock(actor(ctx), pathId(ctx.params.entryId), clock.now());
    ctx.status = 204;
  });
  op.get('/flags', async () => ({ items: await risk.flags() }));
  return r;
}
