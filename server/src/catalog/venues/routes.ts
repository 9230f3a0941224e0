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
import { pathId } from '../../http/path-params';
import { ADMIN_PREFIX, adminRoutes, allow, download } from '../../http/admin/http';
import type { VenueService } from './service';

const ExportQuery = z.strictObject({ format: z.enum(['csv', 'json']).default('csv') });

export function venueRoutes(venues: VenueService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: `${ADMIN_PREFIX}/venues` });
  r.use(auth);
  const op = adminRoutes(r, clock, allow('operator'));
  // Staff managers pick shows, not venues; reading venues is for whoever builds shows.
  r.get('/', allow('operator'), async (ctx) => {
    ctx.body = { items: await venues.list() };
  });
  op.create('/', VenueCreateSchema, (c) => venues.create(c.who, c.input, c.now));
  r.post('/layout/generate', allow('operator'), async (ctx) => {
    ctx.body = venues.generate(GenerateLayoutSchema.parse(ctx.request.body).blocks);
  });
  r.post('/layout/parse', allow('operator'), async (ctx) => {
    const input = ParseLayoutSchema.parse(ctx.request.body);
    ctx.body = venues.parse(input.format, input.text);
  });
  op.get('/:venueId', (c) => venues.get(c.id('venueId')));
  op.patch('/:venueId', VenueUpdateSchema, (c) => venues.update(c.who, c.id('venueId'), c.input, c.now));
  op.put('/:venueId/layout', VenueLayoutSchema, (c) =>
    venues.replaceLayout(c.who, c.id('venueId'), c.input, c.now),
  );
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
