import Router from '@koa/router';
import type { Middleware } from 'koa';
import {
  GenerateLayoutSchema,
  ParseLayoutSchema,
  VenueCreateSchema,
  VenueLayoutSchema,
  VenueUpdateSchema,
} from '@showtix/shared-types';
import { z } from 'zod';
import type { Clock } from '../../clock';
import { pathId } from '../routes';
import { ADMIN_PREFIX, actor, allow, download } from '../../http/admin/http';
import type { VenueService } from './service';

const ExportQuery = z.strictObject({ format: z.enum(['csv', 'json']).default('csv') });

export function venueRoutes(venues: VenueService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: `${ADMIN_PREFIX}/venues` });
  r.use(auth);
  // Staff managers pick shows, not venues; reading venues is for whoever builds shows.
  r.get('/', allow('operator'), async (ctx) => {
    ctx.body = { items: await venues.list() };
  });
  r.post('/', allow('operator'), async (ctx) => {
    const input = VenueCreateSchema.parse(ctx.request.body);
    ctx.status = 201;
    ctx.body = await venues.create(actor(ctx), input, clock.now());
  });
  r.post('/layout/generate', allow('operator'), async (ctx) => {
    ctx.body = venues.generate(GenerateLayoutSchema.parse(ctx.request.body).blocks);
  });
  r.post('/layout/parse', allow('operator'), async (ctx) => {
    const input = ParseLayoutSchema.parse(ctx.request.body);
    ctx.body = venues.parse(input.format, input.text);
  });
  r.get('/:venueId', allow('operator'), async (ctx) => {
    ctx.body = await venues.get(pathId(ctx.params.venueId));
  });
  r.patch('/:venueId', allow('operator'), async (ctx) => {
    const input = VenueUpdateSchema.parse(ctx.request.body);
    ctx.body = await venues.update(actor(ctx), pathId(ctx.params.venueId), input, clock.now());
  });
  r.put('/:venueId/layout', allow('operator'), async (ctx) => {
    const input = VenueLayoutSchema.parse(ctx.request.body);
    ctx.body = await venues.replaceLayout(actor(ctx), pathId(ctx.params.venueId), input, clock.now());
  });
  r.get('/:venueId/layout', allow('operator'), async (ctx) => {
    const { format } = ExportQuery.parse(ctx.query);
    const file = await venues.export(pathId(ctx.params.venueId), format);
    download(
      ctx,
      file.name,
      format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
      file.body,
    );
  });
  return r;
}
