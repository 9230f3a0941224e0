import { timingSafeEqual } from 'node:crypto';
import Koa, { type Context } from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { Config } from './config';
import { appError } from './errors';
import { ping } from './db/ping';
import { errorMiddleware } from './http/errors';
import { requireAuth } from './http/auth';
import { apiSecurityHeaders, securityHeaders } from './http/security';
import { LeanLane, rawBodyParser } from './http/lean';
import { catalogRoutes, seatStatesLean } from './catalog/routes';
import { orderRoutes, purchaseLean } from './orders/routes';
import { quotaRoutes } from './orders/quota';
import { exchangeRoutes } from './exchanges/routes';
import { notifyRoutes, payRoutes } from './payments/routes';
import { authRoutes } from './auth/routes';
import { ticketRoutes } from './tickets/routes';
import { h5Routes } from './http/h5';
import { queueJoinLean, queuePollLean, queueRoutes } from './queue/routes';
import { attendeeRoutes } from './attendees/routes';
import { checkinRoutes } from './checkin/routes';
import { adminRouters } from './admin-wiring';
import { ADMIN_PREFIX } from './http/admin/http';
import { requestIdMiddleware } from './http/request-id';
import { healthRoutes } from './http/health';
import { routerTable } from './http/router-table';
import { pausedMiddleware } from './degrade/routes';
import { NoticeService } from './notices/service';
import { noticeRoutes } from './notices/routes';
import { transferRoutes } from './transfers/routes';
import { compClaimRoutes } from './comp/routes';
import { waitlistRoutes } from './waitlist/routes';
import { SaleReminderService } from './sale-reminders/service';
import { saleReminderRoutes } from './sale-reminders/routes';

import type { AppDeps } from './wiring';
import { compOf, sessionChangesOf, transfersOf } from './per-app';

/**
 * /metrics shows per-session counters: with METRICS_TOKEN it needs `Authorization: Bearer
 * <token>`; without one it is open only in development and test (production answers 404, so a
 * scraper must be given the token, or reach an instance through an internal route).
 */
function metricsAllowed(ctx: Context, token: string | undefined, env: Config['env']): void {
  if (!token) {
    if (env === 'production') throw appError('NOT_FOUND');
    return;
  }
  const given = Buffer.from(ctx.get('authorization'));
  const expected = Buffer.from(`Bearer ${token}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw appError('UNAUTHORIZED', undefined, '需要监控令牌');
}

function systemRoutes(d: AppDeps): Router {
  const r = new Router();
  r.get('/healthz', async (ctx) => {
    const [mysql, redis] = await Promise.all([
      ping(d.db).then(
        () => true,
        () => false,
      ),
      d.redis.ping().then(
        () => true,
        () => false,
      ),
    ]);
    ctx.status = mysql && redis ? 200 : 503;
    ctx.body = { ok: mysql && redis, mysql, redis };
  });
  r.get('/metrics', async (ctx) => {
    metricsAllowed(ctx, d.config.metricsToken, d.config.env);
    ctx.type = d.metrics.registry.contentType;
    ctx.body = await d.metrics.registry.metrics();
  });
  return r;
}

/**
 * What a process without the API (ROLE=worker) serves on METRICS_PORT: /metrics for the
 * scraper, /livez and /readyz for the supervisor.
 */
export function createOpsApp(d: AppDeps): Koa {
  const app = new Koa();
  app.use(errorMiddleware(d.log));
  for (const router of [systemRoutes(d), healthRoutes(d)])
    app.use(router.routes()).use(router.allowedMethods());
  return app;
}

/** Where the fan's H5 build calls out to: the simulator's login and cashier (when set) and the API. */
function h5Origins(config: Config): string[] {
  const w = config.wechat;
  const urls = [w.publicBaseUrl, ...(w.cashierUrl ? [w.apiBase, w.payApiBase, w.cashierUrl] : [])];
  const origins = urls.flatMap((u) => {
    try {
      return [new URL(u).origin];
    } catch {
      return [];
    }
  });
  return [...new Set(origins)];
}
/** The fans' JSON bodies: the app's parser, and the lean lane's (it runs the same one). */
const fanBodyParser = (config: Config) =>
  bodyParser({ enableTypes: ['json'], jsonLimit: config.bodyLimitBytes, encoding: 'utf-8' });

/** HSTS only in production (development and tests run plain HTTP). */
const hstsOn = (config: Config) => config.env === 'production';

/**
 * The lean lane (http/lean.ts) beside `app`: the purchase, the waiting room's poll and join and
 * the seat states answered before Koa, or undefined with LEAN_LANE=off.
 */
export function leanLane(app: Koa, d: AppDeps): LeanLane | undefined {
  if (!d.config.leanLane) return undefined;
  const routes = [
    purchaseLean(d.orders, d.tokens, d.clock),
    queuePollLean(d.queue, d.tokens, d.clock),
    queueJoinLean(d.queue, d.tokens, d.clock),
    seatStatesLean(d.seatmaps, d.clock, () => d.degrade.seatPollMs()),
  ];
  return new LeanLane(app, routes, {
    lifecycle: d.lifecycle,
    shedder: d.shedder,
    metrics: d.metrics,
    log: d.log,
    apiHeaders: apiSecurityHeaders(hstsOn(d.config)),
    logRequestContext: d.config.logRequestContext,
    parseBody: rawBodyParser(fanBodyParser(d.config), d.config.bodyLimitBytes),
  });
}

export function createApp(d: AppDeps): Koa {
  // maxIpsCount keeps only the entries the trusted proxies appended: ctx.ip is the address the
  // outermost of them saw, never a value the client wrote into X-Forwarded-For itself.
  const hops = d.config.trustProxyHops;
  const app = new Koa({ proxy: hops > 0, maxIpsCount: hops });
  // Errors outside the middleware chain (a client hanging up mid-response) go to the log, not stderr.
  app.on('error', (err: NodeJS.ErrnoException) => {
    const aborted =
      err.code === 'ERR_STREAM_PREMATURE_CLOSE' || err.code === 'ECONNRESET' || err.code === 'EPIPE';
    d.log[aborted ? 'debug' : 'error']({ err }, 'HTTP error outside a request handler');
  });
  // Outermost: the request id (on every answer, refusals too), then in-flight counting for the drain.
  app.use(requestIdMiddleware(d.log, d.config.logRequestContext));
  app.use(d.lifecycle.middleware());
  // Metrics wrap everything so they see the final status the error middleware sets.
  app.use(d.metrics.middleware());
  // A saturated instance refuses at once (after the in-flight count, before any parsing).
  d.shedder.start();
  app.use(d.shedder.middleware());
  // Before the error middleware, so error answers carry the headers too.
  app.use(securityHeaders({ hsts: hstsOn(d.config), h5ConnectSrc: h5Origins(d.config) }));
  app.use(errorMiddleware(d.log));
  app.use(pausedMiddleware(d.degrade));
  // Admin routes parse their bodies themselves, after authentication (http/admin/http.ts). No
  // GET or HEAD route reads a body, so none is parsed (the waiting room's polls are GETs: the
  // parser's checks cost ~8 µs of each in an interleaved A/B of livez, 2026-12-02).
  const fanBody = fanBodyParser(d.config);
  const unread = (ctx: Context) =>
    ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.path.startsWith(ADMIN_PREFIX);
  app.use((ctx, next) => (unread(ctx) ? next() : fanBody(ctx, next)));
  app.use(routerTable(apiRouters(d)));
  return app;
}

/**
 * The API's routers in the order they are tried: the purchase path, the waiting room (the
 * crowd's joins and polls) and the seat map come first; no two of their paths overlap. Each
 * request runs only those with a route its path could match (routerTable).
 */
export function apiRouters(d: AppDeps): Router[] {
  const auth = requireAuth(d.tokens);
  const transfers = transfersOf(d);
  const comp = compOf(d);
  const payDeps = {
    payments: d.payments,
    refunds: d.refunds,
    orders: d.orders,
    auth,
    clock: d.clock,
    trusted: d.wechatKeys,
    apiV3Key: d.config.wechat.apiV3Key,
    log: d.log,
  };
  return [
    orderRoutes(d.orders, auth, d.clock),
    queueRoutes(d.queue, auth, d.clock),
    catalogRoutes(d.catalog, d.seatmaps, d.clock, () => d.degrade.seatPollMs()),
    exchangeRoutes(d.exchanges, auth, d.clock),
    quotaRoutes(d.db, d.catalog, auth),
    systemRoutes(d),
    healthRoutes(d),
    authRoutes(d),
    payRoutes(payDeps),
    notifyRoutes(payDeps),
    ticketRoutes(d.db, d.bindings, auth, d.clock, transfers),
    transferRoutes(transfers, auth, d.clock, d.risk),
    checkinRoutes(d.checkins, auth, d.clock),
    attendeeRoutes(d.attendees, auth, d.risk),
    noticeRoutes(new NoticeService(d.db, d.config.wechat.templates), auth, d.clock),
    compClaimRoutes(comp.comps, auth, d.clock),
    waitlistRoutes(d.waitlist, auth, d.clock),
    saleReminderRoutes(new SaleReminderService(d.db, d.relay), auth, d.clock),
    ...adminRouters({ ...d, sessionChanges: sessionChangesOf(d), transfers, comp }),
    // The H5 build works only with the simulator's cashier: production serves it only when asked.
    ...(d.config.serveH5 ? [h5Routes(d.config.h5Dir, d.config.admin.host)] : []),
  ];
}
