import Router from '@koa/router';
import { IdSchema, SEAT_POLL_DEFAULT_MS, ShowListQuerySchema, type ErrorCode } from '@showtix/shared-types';
import type { ZodType } from 'zod';
import type { Clock } from '../clock';
import { appError } from '../errors';
import type { CatalogService } from './service';
import type { SeatMapService } from '../inventory/seatmap';
import { sendLayout } from './layout-http';

/** A path parameter checked by its schema; one that does not pass answers `code`. */
export function pathParam<T>(schema: ZodType<T>, value: string | undefined, code: ErrorCode): T {
  const r = schema.safeParse(value);
  if (!r.success) throw appError(code);
  return r.data;
}

/** Ids in paths that are not ids answer 404, like ids that do not exist. */
export const pathId = (value: string | undefined): string => pathParam(IdSchema, value, 'NOT_FOUND');

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
  });
  r.get('/shows/:showId', async (ctx) => {
    ctx.body = await catalog.showDetail(pathId(ctx.params.showId));
  });
  r.get('/sessions/:sessionId', async (ctx) => {
    ctx.body = await catalog.sessionDetail(pathId(ctx.params.sessionId));
  });
  r.get('/sessions/:sessionId/seatmap', async (ctx) => {
    ctx.body = await seatmaps.seatMap(pathId(ctx.params.sessionId), clock.now().getTime());
  });
  r.get('/sessions/:sessionId/seat-states', async (ctx) => {
    const since = typeof ctx.query.since === 'string' ? ctx.query.since : undefined;
    const reply = await seatmaps.seatStatesSince(pathId(ctx.params.sessionId), since, clock.now().getTime());
    // How long the client waits before its next poll (raised by a degradation switch).
    ctx.body = { ...reply, pollAfterMs: pollMs() };
  });
  r.get('/sessions/:sessionId/layout', async (ctx) => {
    sendLayout(ctx, await seatmaps.layout(pathId(ctx.params.sessionId)));
  });
  return r;
}
