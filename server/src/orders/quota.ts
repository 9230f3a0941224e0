import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { PurchaseQuota } from '@showtix/shared-types';
import type { CatalogService } from '../catalog/service';
import { pathId } from '../http/path-params';
import type { Db } from '../db/pool';
import { principal } from '../http/auth';
import { heldUnits } from './repo';

/**
 * What the fan may still buy in a session: the purchase limits less what their live orders hold
 * (MySQL's quota rows, the same ones an order is checked against). The fan app says 已达限购
 * before the queue and the seat map with it; the order itself is still checked when placed.
 */
export async function purchaseQuota(
  db: Db,
  catalog: CatalogService,
  userId: string,
  sessionId: string,
): Promise<PurchaseQuota> {
  const cat = await catalog.requireSession(sessionId);
  const held = await heldUnits(db, userId, sessionId);
  const bySession = cat.purchaseLimit - held.session;
  const byShow = cat.showPurchaseLimit === null ? Infinity : cat.showPurchaseLimit - held.show;
  return {
    sessionId,
    purchaseLimit: cat.purchaseLimit,
    held: held.session,
    showPurchaseLimit: cat.showPurchaseLimit,
    showHeld: held.show,
    remaining: Math.max(0, Math.min(bySession, byShow)),
  };
}

export function quotaRoutes(db: Db, catalog: CatalogService, auth: Middleware): Router {
  const r = new Router({ prefix: '/api/v1/sessions/:sessionId/quota' });
  r.use(auth);
  r.get('/', async (ctx) => {
    ctx.body = await purchaseQuota(db, catalog, principal(ctx).userId, pathId(ctx.params.sessionId));
  });
  return r;
}
