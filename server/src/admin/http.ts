import type { Context, Middleware, Next } from 'koa';
import { bodyParser } from '@koa/bodyparser';
import type { AdminRole } from '@showtix/shared-types';
import { appError } from '../http/errors';
import type { AdminConfig } from './config';

/** Who made a change: written into every audit entry. */
export interface Actor {
  adminId: string;
  username: string;
  ip: string;
}

export interface AdminPrincipal extends Actor {
  roles: AdminRole[];
  tokenHash: string;
}

interface AdminState {
  admin: AdminPrincipal;
}

export const ADMIN_PREFIX = '/api/v1/admin';

/**
 * Admin requests carry whole venue layouts, far above the fan API's JSON limit. Mounted before
 * the app's own body parser: once the body is parsed here, that one leaves it alone.
 */
export function adminBodyParser(cfg: AdminConfig): Middleware {
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: cfg.bodyLimitBytes, encoding: 'utf-8' });
  return (ctx, next) => (ctx.path.startsWith(ADMIN_PREFIX) ? parse(ctx, next) : next());
}

export function setAdmin(ctx: Context, admin: AdminPrincipal): void {
  (ctx.state as AdminState).admin = admin;
}

export function currentAdmin(ctx: Context): AdminPrincipal {
  const a = (ctx.state as Partial<AdminState>).admin;
  if (!a) throw appError('UNAUTHORIZED');
  return a;
}

export function actor(ctx: Context): Actor {
  const a = currentAdmin(ctx);
  return { adminId: a.adminId, username: a.username, ip: a.ip };
}

/** Route guard: the signed-in admin must hold one of these roles ('admin' holds them all). */
export function allow(...roles: AdminRole[]): Middleware {
  return async (ctx: Context, next: Next) => {
    const have = currentAdmin(ctx).roles;
    if (!have.includes('admin') && !roles.some((r) => have.includes(r))) {
      throw appError('FORBIDDEN', { required: roles }, '当前账号无权进行此操作');
    }
    await next();
  };
}

/** Sends a file download with a UTF-8 file name (Chinese names survive every browser). */
export function download(ctx: Context, fileName: string, type: string, body: string | Buffer): void {
  ctx.type = type;
  ctx.set(
    'Content-Disposition',
    `attachment; filename="export"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
  );
  ctx.set('Cache-Control', 'no-store');
  ctx.body = body;
}
