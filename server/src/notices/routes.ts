import Router from '@koa/router';
import type { Middleware } from 'koa';
import { SubscriptionAnswersSchema } from '@showtix/shared-types';
import type { Clock } from '../clock';
import { principal } from '../http/auth';
import type { NoticeService } from './service';

/** Notice templates (public: the mini-program asks before login) and the fan's consent. */
export function noticeRoutes(notices: NoticeService, auth: Middleware, clock: Clock): Router {
  const r = new Router({ prefix: '/api/v1' });
  r.get('/notices/templates', (ctx) => {
    ctx.body = notices.templateIds();
  });
  r.get('/me/subscriptions', auth, async (ctx) => {
    ctx.body = await notices.consents(principal(ctx).userId);
  });
  r.post('/me/subscriptions', auth, async (ctx) => {
    const body = SubscriptionAnswersSchema.parse(ctx.request.body);
    ctx.body = await notices.record(principal(ctx).userId, body, clock.now());
  });
  return r;
}
