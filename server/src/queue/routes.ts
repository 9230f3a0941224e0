import Router from '@koa/router';
import type { Middleware } from 'koa';
import { QueueJoinSchema } from '@showtix/shared-types';
import type { Clock } from '../clock';
import { pathId } from '../http/path-params';
import { leanFan, principal, type TokenService } from '../http/auth';
import { sessionPath, type LeanRoute } from '../http/lean';
import { clientOf } from '../risk/client';
import type { QueueService } from './service';

/**
 * The session id of a queue path: the regex IdSchema applies to a string, tested directly (the
 * zod parse was a quarter of the poll handler's own CPU in the profile); anything else goes
 * through pathId for its 404.
 */
const PLAIN_ID = /^[1-9]\d{0,17}$/;
const sessionIdOf = (v: string | undefined): string => (v !== undefined && PLAIN_ID.test(v) ? v : pathId(v));

/**
 * A join's body: almost always empty (the ID fields are for real-name sessions only), which
 * QueueJoinSchema answers with {}; anything else goes through the schema.
 */
function joinBody(b: unknown) {
  if (typeof b === 'object' && b !== null && Object.getPrototypeOf(b) === Object.prototype) {
    for (const k in b) if (Object.hasOwn(b, k)) return QueueJoinSchema.parse(b);
    return {};
  }
  return QueueJoinSchema.parse(b ?? {});
}

export function queueRoutes(queue: QueueService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: '/api/v1/sessions/:sessionId/queue' });
  r.use(auth);
  r.post('/join', async (ctx) => {
    const body = joinBody(ctx.request.body);
    ctx.body = await queue.join(
      principal(ctx).userId,
      sessionIdOf(ctx.params.sessionId),
      body,
      clock.now(),
      clientOf(ctx),
    );
  });
  r.get('/', async (ctx) => {
    ctx.body = await queue.status(
      principal(ctx).userId,
      sessionIdOf(ctx.params.sessionId),
      clock.now(),
      clientOf(ctx),
    );
  });
  return r;
}

/**
 * The poll above on the lean lane (http/lean.ts): the same checks (the fan's token, the path's
 * plain id) and the same service call, without Koa. Other forms of the path (a trailing slash,
 * another case, an id of another form) go to the router above.
 */
export function queuePollLean(queue: QueueService, tokens: TokenService, clock: Clock): LeanRoute {
  return {
    method: 'GET',
    route: '/api/v1/sessions/:sessionId/queue',
    match: sessionPath('/queue'),
    async handle(req) {
      const fan = leanFan(tokens, req);
      return queue.status(fan.userId, req.param, clock.now(), fan.client);
    },
  };
}

/** The join above on the lean lane: its body read by the app's own parser, then the same checks and call. */
export function queueJoinLean(queue: QueueService, tokens: TokenService, clock: Clock): LeanRoute {
  return {
    method: 'POST',
    route: '/api/v1/sessions/:sessionId/queue/join',
    match: sessionPath('/queue/join'),
    async handle(req) {
      const fan = leanFan(tokens, req);
      return queue.join(fan.userId, req.param, joinBody(req.body), clock.now(), fan.client);
    },
  };
}
