import Router from '@koa/router';
import { SEAT_POLL_DEFAULT_MS, ShowListQuerySchema } from '@showtix/shared-types';
import type { Clock } from '../clock';
import { sessionPath, type LeanRoute } from '../http/lean';
import { pathId } from '../http/path-params';
import type { CatalogService } from './service';
import type { SeatMapService } from '../inventory/seatmap';
import { sendLayout } from './layout-http';

/**
 * The catalog's answers are the same for every fan (no user in them), and seat states are
 * already up to SEAT_STATES_CACHE_MS old: a proxy or CDN in front may serve one answer (per URL)
 * to a crowd for a second, and keep serving it up to 30 s while no instance can answer
 * (deploy/nginx micro-caches them). In a hot sale every open seat map polls the seat states and
 * every fan refreshes the session page. Set on success only: an error is never cached.
 */
export const PUBLIC_BRIEF_CACHE = 'public, max-age=1, stale-while-revalidate=2, stale-if-error=30';

export function catalogRoutes(
  catalog: CatalogService,
  seatmaps: SeatMapService,
  clock: Clock,
  pollMs: () => number = () => SEAT_POLL_DEFAULT_MS,
): Router {
  const r = new Router({ prefix: '/api/v1' });
  r.get('/shows', async (ctx) => {
    // A category that is not one of SHOW_CATEGORIES is refused (400), not read as "none".
    const { category } = ShowListQuerySchema.parse(ctx.query);
    ctx.body = { items: await catalog.listShows(category) };
    ctx.set('Cache-Control', PUBLIC_BRIEF_CACHE);
  });
  r.get('/shows/:showId', async (ctx) => {
    ctx.body = await catalog.showDetail(pathId(ctx.params.showId));
    ctx.set('Cache-Control', PUBLIC_BRIEF_CACHE);
  });
  r.get('/sessions/:sessionId', async (ctx) => {
    ctx.body = await catalog.sessionDetail(pathId(ctx.params.sessionId));
    ctx.set('Cache-Control', PUBLIC_BRIEF_CACHE);
  });
  r.get('/sessions/:sessionId/seatmap', async (ctx) => {
    ctx.body = await seatmaps.seatMap(pathId(ctx.params.sessionId), clock.now().getTime());
  });
  r.get('/sessions/:sessionId/seat-states', async (ctx) => {
    const since = typeof ctx.query.since === 'string' ? ctx.query.since : undefined;
    ctx.body = await seatStates(seatmaps, clock, pollMs, pathId(ctx.params.sessionId), since);
    ctx.set('Cache-Control', PUBLIC_BRIEF_CACHE);
  });
  r.get('/sessions/:sessionId/layout', async (ctx) => {
    sendLayout(ctx, await seatmaps.layout(pathId(ctx.params.sessionId)));
  });
  return r;
}

/**
 * The seat states since `since` (all of them without), and how long the client waits before its
 * next poll (raised by a degradation switch): the Koa route's answer and the lean lane's.
 */
async function seatStates(
  seatmaps: SeatMapService,
  clock: Clock,
  pollMs: () => number,
  sessionId: string,
  since: string | undefined,
) {
  const reply = await seatmaps.seatStatesSince(sessionId, since, clock.now().getTime());
  return { ...reply, pollAfterMs: pollMs() };
}

/**
 * The seat states above on the lean lane (http/lean.ts): every open seat map polls them. The same
 * call and answer, Cache-Control included; another form of the path goes to the router above.
 */
export function seatStatesLean(seatmaps: SeatMapService, clock: Clock, pollMs: () => number): LeanRoute {
  return {
    method: 'GET',
    route: '/api/v1/sessions/:sessionId/seat-states',
    okHeaders: ['Cache-Control', PUBLIC_BRIEF_CACHE],
    match: sessionPath('/seat-states'),
    handle: (req) => seatStates(seatmaps, clock, pollMs, req.param, req.searchParam('since')),
  };
}
