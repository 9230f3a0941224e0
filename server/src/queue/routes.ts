import Router from '@koa/router';
import type { Middleware } from 'koa';
import { QueueJoinSchema } from '@showtix/shared-types';
import type { Clock } from '../clock';
import { pathId } from '../catalog/routes';
import { principal } from '../http/auth';
import { clientOf } from '../risk/client';
import type { QueueService } from './service';

export function queueRoutes(queue: QueueService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: '/api/v1/sessions/:sessionId/queue' });
  r.use(auth);
  r.post('/join', async (ctx) => {
    const body = QueueJoinSchema.parse(ctx.request.body ?? {});
    ctx.body = await queue.join(
      principal(ctx).userId,
      pathId(ctx.params.sessionId),
      body,
      clock.now(),
      clientOf(ctx),
    );
  });
  r.get('/', async (ctx) => {
    ctx.body = await queue.status(
      principal(ctx).userId,
      pathId(ctx.params.sessionId),
      clock.now(),
      clientOf(ctx),
    );
  });
  return r;
}
