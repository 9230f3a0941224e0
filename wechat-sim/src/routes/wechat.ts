import Router from '@koa/router';
import type { Services } from '../services';

/**
 * The mini-program server APIs on api.weixin.qq.com. WeChat answers them with HTTP 200 even on
 * errors, and jscode2session famously says Content-Type text/plain although the body is JSON.
 */
export function wechatRouter(svc: Services): Router {
  const r = new Router();

  r.get('/sns/jscode2session', (ctx) => {
    ctx.body = JSON.stringify(svc.login.jscode2session(ctx.query));
    ctx.type = 'text/plain';
  });

  r.get('/cgi-bin/token', (ctx) => {
    ctx.body = svc.login.token(ctx.query);
  });

  r.post('/cgi-bin/stable_token', (ctx) => {
    ctx.body = svc.login.token((ctx.request.body ?? {}) as Record<string, unknown>);
  });

  r.post('/cgi-bin/message/subscribe/send', (ctx) => {
    const body = ctx.request.body;
    const payload = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    ctx.body = svc.subscribe.send(ctx.query.access_token, payload);
  });

  return r;
}
