import Router from '@koa/router';
import { WxLoginSchema } from '@showtix/shared-types';
import { wxLogin, type AuthDeps } from './service';
import { clientOf } from '../risk/client';

export function authRoutes(d: AuthDeps): Router {
  const r = new Router({ prefix: '/api/v1/auth' });
  r.post('/wx-login', async (ctx) => {
    const { code } = WxLoginSchema.parse(ctx.request.body);
    ctx.body = await wxLogin(d, code, clientOf(ctx));
  });
  return r;
}
