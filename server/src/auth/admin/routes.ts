import Router from '@koa/router';
import type { Middleware } from 'koa';
import { AdminCreateSchema, AdminLoginSchema, AdminUpdateSchema } from '@showtix/shared-types';
import type { Clock } from '../../clock';
import { pathId } from '../../http/path-params';
import { appError } from '../../errors';
import { ADMIN_PREFIX, actor, allow, currentAdmin, loginBodyParser, setAdmin } from '../../http/admin/http';
import type { AdminAccountService } from './accounts';
import type { AdminAuthService } from './service';

/**
 * Bearer token -> live admin session on ctx.state; 401 without one, 403 for fan/staff tokens.
 * The request body is read only after that (`body`, sized by route): an anonymous caller
 * cannot make the server read and parse megabytes.
 */
export function requireAdmin(auth: AdminAuthService, clock: Clock, body: Middleware): Middleware {
  return async (ctx, next) => {
    const m = /^Bearer ([\w.-]+)$/.exec(ctx.get('authorization'));
    if (!m) throw appError('UNAUTHORIZED', undefined, '请先登录管理后台');
    setAdmin(ctx, await auth.authenticate(m[1]!, ctx.ip, clock.now()));
    await body(ctx, next);
  };
}

export function authRoutes(
  auth: AdminAuthService,
  accounts: AdminAccountService,
  requireAdminMw: Middleware,
  clock: Clock,
): Router {
  const r = new Router({ prefix: ADMIN_PREFIX });
  r.post('/login', loginBodyParser, async (ctx) => {
    const input = AdminLoginSchema.parse(ctx.request.body);
    ctx.body = await auth.login(input.username, input.password, ctx.ip, clock.now());
  });
  r.post('/logout', requireAdminMw, async (ctx) => {
    await auth.logout(currentAdmin(ctx), clock.now());
    ctx.status = 204;
  });
  r.get('/me', requireAdminMw, async (ctx) => {
    ctx.body = await auth.me(currentAdmin(ctx).adminId);
  });
  r.get('/admins', requireAdminMw, allow('admin'), async (ctx) => {
    ctx.body = { items: await accounts.list() };
  });
  r.post('/admins', requireAdminMw, allow('admin'), async (ctx) => {
    const input = AdminCreateSchema.parse(ctx.request.body);
    ctx.status = 201;
    ctx.body = await accounts.create(actor(ctx), input, clock.now());
  });
  r.patch('/admins/:adminId', requireAdminMw, allow('admin'), async (ctx) => {
    const input = AdminUpdateSchema.parse(ctx.request.body);
    ctx.body = await accounts.update(actor(ctx), pathId(ctx.params.adminId), input, clock.now());
  });
  return r;
}
