import Router from '@koa/router';
import type { Middleware } from 'koa';
import { SessionCreateSchema, SessionUpdateSchema, TiersUpdateSchema } from '@showtix/shared-types';
import type { Clock } from '../../clock';
import { ADMIN_PREFIX, adminRoutes, allow } from '../../http/admin/http';
import type { SessionService } from './service';

export function sessionRoutes(sessions: SessionService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: ADMIN_PREFIX });
  r.use(auth);
  const op = adminRoutes(r, clock, allow('operator'));
  op.create('/shows/:showId/sessions', SessionCreateSchema, (c) =>
    sessions.create(c.who, c.id('showId'), c.input, c.now),
  );
  op.get('/sessions/:sessionId', (c) => sessions.get(c.id('sessionId')));
  op.patch('/sessions/:sessionId', SessionUpdateSchema, (c) =>
    sessions.update(c.who, c.id('sessionId'), c.input, c.now),
  );
  op.put('/sessions/:sessionId/tiers', TiersUpdateSchema, (c) =>
    sessions.setTiers(c.who, c.id('sessionId'), c.input.tiers, c.now),
  );
  op.action('/sessions/:sessionId/open', (c) => sessions.open(c.who, c.id('sessionId'), c.now));
  op.action('/sessions/:sessionId/end', (c) => sessions.end(c.who, c.id('sessionId'), c.now));
  op.get('/sessions/:sessionId/seatmap', (c) => sessions.seatMap(c.id('sessionId'), c.now));
  return r;
}
