import type { Context, Middleware, Next } from 'koa';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { AdminRole } from '@showtix/shared-types';
import type { ZodType } from 'zod';
import { appError } from '../../errors';
import type { Actor } from '../../audit/actor';
import type { Clock } from '../../clock';
import { pathId } from '../path-params';

export type { Actor };

export interface AdminPrincipal extends Actor {
  roles: AdminRole[];
  tokenHash: string;
}

interface AdminState {
  admin: AdminPrincipal;
}

export const ADMIN_PREFIX = '/api/v1/admin';

/** The login form: a username and a password, never more than this. */
const LOGIN_BODY_LIMIT = 4 * 1024;

/**
 * The only admin routes whose JSON bodies may be large (whole venue layouts, per-seat price
 * tiers). Every other admin route takes the fan API's small limit; the poster upload reads its
 * own stream with its own cap. Method + path, with ids as digits.
 */
const LARGE_BODY_ROUTES: [method: string, path: RegExp][] = [
  ['POST', /^\/venues$/],
  ['PUT', /^\/venues\/\d+\/layout$/],
  ['POST', /^\/venues\/layout\/parse$/],
  ['POST', /^\/shows\/\d+\/sessions$/],
  ['PUT', /^\/sessions\/\d+\/tiers$/],
];

export interface AdminBodyLimits {
  /** Authenticated admin routes that carry layouts or tiers. */
  largeBytes: number;
  /** Every other authenticated admin route. */
  smallBytes: number;
}

const jsonParser = (limit: number) =>
  bodyParser({ enableTypes: ['json'], jsonLimit: limit, encoding: 'utf-8' });

/**
 * Body parsing on /api/v1/admin/* happens only after authentication (see requireAdmin), and
 * only for a route that exists: an anonymous request, or one to an unknown path, never makes
 * the server read a large body. The app's own parser skips the admin prefix.
 */
export function adminBodyParser(limits: AdminBodyLimits): Middleware {
  const large = jsonParser(limits.largeBytes);
  const small = jsonParser(limits.smallBytes);
  return (ctx, next) => {
    const rel = ctx.path.slice(ADMIN_PREFIX.length);
    const big = LARGE_BODY_ROUTES.some(([m, re]) => m === ctx.method && re.test(rel));
    return (big ? large : small)(ctx, next);
  };
}

/** The anonymous login route's own parser: a few kilobytes at most. */
export const loginBodyParser: Middleware = jsonParser(LOGIN_BODY_LIMIT);

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

/** What an admin route hands its one service call. */
export interface AdminCall<I> {
  /** The signed-in admin, for the audit log. */
  who: Actor;
  /** A path parameter read as an id: one that is not an id answers 404, like an id that does not exist. */
  id(param: string): string;
  /** The JSON body as the route's schema checked it (undefined for a route without one). */
  input: I;
  now: Date;
}

type AdminCallFn<I> = (c: AdminCall<I>) => unknown;

interface HandlerOptions<I> {
  /** Checks the JSON body; a route without one ignores the body. */
  schema?: ZodType<I>;
  /** 201 for a create; 200 otherwise. */
  status?: number;
  /** For what an operator must always see fresh. */
  noStore?: boolean;
}

/**
 * Registers the usual admin routes on `r`: check the body against the route's schema, make one
 * service call with the acting admin, the path ids and the time, and answer what it returns.
 * `guards` (the role check) go before each route, unless the router checks roles for all of its
 * routes itself. A route that does more (queries, files, 204s) stays a plain Koa handler.
 */
export function adminRoutes(r: Router, clock: Clock, ...guards: Middleware[]) {
  const handle =
    <I>(call: AdminCallFn<I>, o: HandlerOptions<I> = {}): Middleware =>
    async (ctx) => {
      // The body is checked before the ids, so a request wrong in both answers 400, as it always has.
      const input = o.schema ? o.schema.parse(ctx.request.body) : (undefined as I);
      const params = (ctx as RouterContext).params;
      const c = { who: actor(ctx), id: (p: string) => pathId(params[p]), input, now: clock.now() };
      if (o.noStore) ctx.set('Cache-Control', 'no-store');
      if (o.status) ctx.status = o.status;
      ctx.body = await call(c);
    };
  return {
    get: (path: string, call: AdminCallFn<undefined>, o: { noStore?: boolean } = {}) =>
      r.get(path, ...guards, handle(call, o)),
    /** A POST that creates something: 201. */
    create: <I>(path: string, schema: ZodType<I>, call: AdminCallFn<I>) =>
      r.post(path, ...guards, handle(call, { schema, status: 201 })),
    post: <I>(path: string, schema: ZodType<I>, call: AdminCallFn<I>) =>
      r.post(path, ...guards, handle(call, { schema })),
    /** A POST without a body (open, end). */
    action: (path: string, call: AdminCallFn<undefined>) => r.post(path, ...guards, handle(call)),
    put: <I>(path: string, schema: ZodType<I>, call: AdminCallFn<I>) =>
      r.put(path, ...guards, handle(call, { schema })),
    patch: <I>(path: string, schema: ZodType<I>, call: AdminCallFn<I>) =>
      r.patch(path, ...guards, handle(call, { schema })),
  };
}
