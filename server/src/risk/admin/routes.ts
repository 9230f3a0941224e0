import Router from '@koa/router';
import type { Middleware } from 'koa';
import { BlockCreateSchema } from '@showtix/shared-types';
import type { Clock } from '../../clock';
import { pathId } from '../../catalog/routes';
import { ADMIN_PREFIX, actor, allow } from '../../http/admin/http';
import type { RiskAdminService } from './service';

export function riskRoutes(risk: RiskAdminService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: `${ADMIN_PREFIX}/risk` });
  r.use(auth, allow('operator'));
  r.get('/blocklist', async (ctx) => {
    ctx.body = { items: await risk.blocklist() };
  });
  r.post('/blocklist', async (ctx) => {
    const input = BlockCreateSchema.parse(ctx.request.body);
    ctx.status = 201;
    ctx.body = await risk.block(actor(ctx), input, clock.now());
  });
  r.delete('/blocklist/:entryId', async (ctx) => {
    await risk.unblock(actor(ctx), pathId(ctx.params.entryId), clock.now());
    ctx.status = 204;
  });
  r.get('/flags', async (ctx) => {
    ctx.body = { items: await risk.flags() };
  });
  return r;
}
