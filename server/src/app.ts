import { timingSafeEqual } from 'node:crypto';
import Koa, { type Context } from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import pino, { type Logger } from 'pino';
import type { Config } from './config';
import { systemClock, type Clock } from './clock';
import { createPool, type Db } from './db/pool';
import { ReplicaRouter } from './db/replica';
import { createRedis } from './redis/client';
import { Keys } from './redis/keys';
import type { ScriptedRedis } from './redis/scripts';
import { appError } from './errors';
import { errorMiddleware } from './http/errors';
import { requireAuth, TokenService } from './http/auth';
import { Metrics } from './http/metrics';
import { securityHeaders } from './http/security';
import { CatalogService } from './catalog/service';
import { SeatMapService } from './inventory/seatmap';
import { catalogRoutes } from './catalog/routes';
import { SeatVersions } from './inventory/seat-delta';
import { InventoryService } from './inventory/service';
import { IdGenerator } from './orders/ids';
import { IdNodeLease } from './orders/id-lease';
import { OrderWriter } from './orders/writer';
import { OrderService } from './orders/service';
import { orderRoutes } from './orders/routes';
import { RefusalSnapshot } from './orders/refusals';
import { quotaRoutes } from './orders/quota';
import { Broker } from './outbox/broker';
import { OutboxRelay } from './outbox/relay';
import { WechatClient } from './wechat/client';
import { trustedWechatKeys } from './wechat/keys';
import { WechatPay } from './wechat/pay';
import { RefundService } from './refunds/service';
import { ExchangeService } from './exchanges/service';
import { exchangeRoutes } from './exchanges/routes';
import { PaymentService } from './payments/service';
import { paymentLedger } from './payments/ledger';
import { notifyRoutes, payRoutes } from './payments/routes';
import { authRoutes } from './auth/routes';
import { ticketRoutes } from './tickets/routes';
import { QUEUES } from './outbox/topology';
import { h5Routes } from './http/h5';
import { IdentityVault } from './attendees/crypto';
import { AdmissionTokens } from './queue/tokens';
import { QueueService } from './queue/service';
import { RiskService } from './risk/service';
import { riskOptions } from './config/risk';
import { queueRoutes } from './queue/routes';
import { AttendeeBook } from './attendees/service';
import { attendeeRoutes } from './attendees/routes';
import { TicketKeys } from './tickets/keys';
import { BindingService } from './tickets/bindings';
import { CheckinService } from './checkin/service';
import { checkinRoutes } from './checkin/routes';
import { manualLimiter } from './checkin/manual';
import { Reconciler } from './payments/reconcile';
import { adminRouters, createAdminServices, type AdminServices } from './admin';
import { ADMIN_PREFIX } from './admin/http';
import { Lifecycle } from './http/lifecycle';
import { requestIdMiddleware, requestIdMixin } from './http/request-id';
import { healthRoutes, readinessCheck } from './http/health';
import { CacheInvalidation } from './cache/invalidation';
import { LoadShedder } from './http/shedding';
import { WechatBreaker } from './wechat/breaker';
import { DegradeService } from './degrade/service';
import { pausedMiddleware } from './degrade/routes';
import { NoticeService } from './notices/service';
import { noticeRoutes } from './notices/routes';
import { SessionChangeService } from './session-changes/service';
import { TransferService } from './transfers/service';
import { transferRoutes } from './transfers/routes';
import { ReservationService } from './comp/reservations';
import { CompService } from './comp/service';
import { compClaimRoutes } from './comp/routes';
import { WaitlistService } from './waitlist/service';
import { waitlistRoutes } from './waitlist/routes';
import { SaleReminderService } from './sale-reminders/service';
import { saleReminderRoutes } from './sale-reminders/routes';

/** Everything the app is made of, built once from the config. Tests build it with their own. */
export interface AppDeps {
  config: Config;
  log: Logger;
  clock: Clock;
  db: Db;
  /** Plain reads that may be a second stale: the replica while its lag is in bounds (db/replica.ts). */
  readDb: Db;
  replica: ReplicaRouter;
  writerDb: Db;
  redis: ScriptedRedis;
  keys: Keys;
  tokens: TokenService;
  metrics: Metrics;
  catalog: CatalogService;
  inventory: InventoryService;
  seatmaps: SeatMapService;
  writer: OrderWriter;
  idLease: IdNodeLease;
  orders: OrderService;
  broker: Broker;
  relay: OutboxRelay;
  wechat: WechatClient;
  wechatKeys: Map<string, import('node:crypto').KeyObject>;
  pay: WechatPay;
  refunds: RefundService;
  /** 改签: exchanges of tickets to other seats of the same show. */
  exchanges: ExchangeService;
  payments: PaymentService;
  admin: AdminServices;
  vault: IdentityVault;
  risk: RiskService;
  queue: QueueService;
  attendees: AttendeeBook;
  ticketKeys: TicketKeys;
  checkins: CheckinService;
  bindings: BindingService;
  reconciler: Reconciler;
  /** Serving state: in-flight requests and draining on shutdown (readiness reads it). */
  lifecycle: Lifecycle;
  /** Invalidation of per-instance caches that reaches every instance (Redis pub/sub). */
  caches: CacheInvalidation;
  /** Early 503 of a saturated instance (event-loop lag, requests in flight). */
  shedder: LoadShedder;
  /** The circuit breaker every WeChat Pay call goes through (none with WECHAT_BREAKER_ERROR_PCT=0). */
  wechatBreaker?: WechatBreaker;
  /** Degradation switches an operator flips from the admin page. */
  degrade: DegradeService;
  /** The waiting lists (候补) for returned tickets. */
  waitlist: WaitlistService;
}

/**
 * The waiting lists: offers are placed through the purchase's gate and writer, and every release
 * of units in this instance (inventory.onFreed) starts an offer run for that session; the sweep
 * job is the backstop for a release whose run never happened (a crash, another instance).
 */
function withWaitlist(ids: IdGenerator, d: Omit<AppDeps, 'waitlist'>): AppDeps {
  const waitlist = new WaitlistService({
    ...d,
    admissions: new AdmissionTokens(d.config.authSecret),
    offer: { ...d, ids, holdGraceMs: d.config.holdGraceMs },
    offerMs: d.config.recovery.waitlistOfferMs,
    cancelOrder: (userId, orderNo, now) => d.orders.cancel(userId, orderNo, now),
  });
  d.inventory.onFreed((id) => waitlist.kick(id, () => d.clock.now()));
  return { ...d, waitlist };
}

/** Ticket transfers (转赠) between fans: stateless over MySQL and the ticket keys. */
export function transfersOf(d: AppDeps): TransferService {
  return new TransferService({
    db: d.db,
    keys: d.ticketKeys,
    vault: d.vault,
    inventory: d.inventory,
    log: d.log,
  });
}

/**
 * Cancelled and postponed sessions and their resumable refund run: the refunds service's one
 * path, the orders' cancel guard. Stateless (the run's state is in MySQL), so the admin routes
 * and the job each build their own.
 */
export function sessionChangesOf(d: AppDeps): SessionChangeService {
  return new SessionChangeService({
    ...d,
    refundOrder: (o) => d.refunds.refundOrder(o),
    cancelPending: (id, now) => d.orders.cancelForSession(id, now),
    refundsPerS: d.config.recovery.sessionCancelRefundsPerS,
  });
}

/** Reserved units and complimentary tickets (comp/): stateless, built per app like the above. */
export function compOf(d: AppDeps): { reservations: ReservationService; comps: CompService } {
  // Complimentary orders take their ids from the purchase path's generator (one lease per node).
  const ids = { next: (nowMs?: number) => d.orders.newOrderId(nowMs) };
  const deps = { db: d.db, log: d.log, catalog: d.catalog, inventory: d.inventory, vault: d.vault, ids };
  return { reservations: new ReservationService(deps), comps: new CompService(deps) };
}

/** The circuit breaker every WeChat Pay call goes through (none with WECHAT_BREAKER_ERROR_PCT=0). */
function breakerOf(config: Config, log: Logger): WechatBreaker | undefined {
  if (config.wechatBreaker.errorThresholdPct <= 0) return undefined;
  const breaker = new WechatBreaker(config.wechatBreaker);
  breaker.onOpen(() => log.error('WeChat Pay breaker opened: calls fail fast until a trial call succeeds'));
  return breaker;
}

export async function createDeps(
  config: Config,
  opts: { clock?: Clock; log?: Logger } = {},
): Promise<AppDeps> {
  const log = opts.log ?? pino({ level: config.logLevel, mixin: requestIdMixin });
  const clock = opts.clock ?? systemClock;
  const db = createPool(config.mysqlUrl, config.mysqlPoolSize);
  const writerDb = createPool(config.mysqlUrl, config.batchInflightMax + 2, true);
  const replica = new ReplicaRouter(db, config.mysqlReplicaUrl, {
    maxLagMs: config.mysqlReplicaMaxLagMs,
    poolSize: config.mysqlPoolSize,
    log,
  });
  await replica.start();
  const readDb = replica.readDb;
  const redis = createRedis(config.redisUrl, config.redisClusterNodes, log);
  const keys = new Keys(config.redisKeyPrefix);
  const caches = new CacheInvalidation(redis, keys.cacheChannel(), log);
  const catalog = new CatalogService(
    db,
    config.catalogCacheMs,
    (id) => caches.invalidate('session', id),
    readDb,
  );
  const inventory = new InventoryService(redis, keys, db, log, config);
  const writer = new OrderWriter(writerDb, config, log);
  const idLease = await IdNodeLease.start(db, log);
  const ids = new IdGenerator(idLease);
  idLease.track(ids);
  const vault = new IdentityVault(config.idSecret);
  const ticketKeys = new TicketKeys(config.ticketKeySecret, config.ticketKeyIds);
  const admissions = new AdmissionTokens(config.authSecret);
  const risk = new RiskService(db, redis, log, riskOptions(config));
  const refusals = new RefusalSnapshot(config.refusalSnapshotMaxAgeMs);
  // Units back or a sale opened here: every instance drops what it knew refused in that session
  // (at once here, in milliseconds elsewhere; the snapshot's age bounds a lost message).
  inventory.onFreed((id) => caches.invalidate('refusals', id));
  caches.on('refusals', (id) => refusals.forget(id));
  const metrics = new Metrics(config.env !== 'test');
  const queue = new QueueService(db, writerDb, redis, keys, catalog, admissions, vault, risk, log, {
    turnMs: config.queueTurnMs,
    defaultRatePerMin: config.queueRatePerMin,
  });
  const broker = new Broker(config.amqpUrl, config.amqpPrefix, QUEUES, log, config.amqpQueueType);
  const relay = new OutboxRelay(db, broker, log);
  const wechatKeys = trustedWechatKeys(config.wechat);
  const wechatBreaker = breakerOf(config, log);
  const pay = new WechatPay(
    config.wechat,
    wechatKeys,
    () => clock.now().getTime(),
    wechatBreaker,
    config.wechatBreaker.timeoutMs,
  );
  const refunds = new RefundService({ db, pay, relay, catalog, log, payments: paymentLedger });
  const payments = new PaymentService({
    db,
    pay,
    wechat: config.wechat,
    relay,
    refunds,
    log,
    onPaid: (userId) => risk.onPaid(userId),
    onApplied: (outcome) => metrics.payments.inc({ outcome }),
  });
  // Orders use payments (the cancel guard) and refunds, never the other way round.
  const orders = new OrderService({
    db,
    writer,
    inventory,
    catalog,
    ids,
    log,
    holdGraceMs: config.holdGraceMs,
    vault,
    admissions,
    risk,
    refusals,
    created: metrics.ordersCreated,
    queuedIds: (sessionId, idHashes) => redis.hmget(keys.session(sessionId).queue.ids, ...idHashes),
    guard: (id, now) => payments.settleBeforeCancel(id, now),
    refundOrder: (o) => refunds.refundOrder(o),
  });
  const seatmaps = new SeatMapService(
    catalog,
    inventory,
    config.seatStatesCacheMs,
    new SeatVersions(redis, keys),
  );
  caches.on('session', (id) => {
    catalog.forget(id);
    seatmaps.forget(id);
    refusals.forget(id);
  });
  caches.on('blocklist', () => risk.invalidateBlocklist());
  const degrade = new DegradeService({
    db,
    log,
    publish: () => caches.invalidate('degrade', '*'),
    sessionChanged: (id) => {
      catalog.forget(id);
      seatmaps.forget(id);
    },
  });
  catalog.overlay = (cat) => degrade.apply(cat);
  caches.on('degrade', () => void degrade.reload());
  await caches.start();
  const lifecycle = new Lifecycle();
  metrics.watchReadiness(readinessCheck({ db, redis, broker, lifecycle }));
  await degrade.start();
  return withWaitlist(ids, {
    config,
    log,
    clock,
    db,
    readDb,
    replica,
    writerDb,
    redis,
    keys,
    tokens: new TokenService(config.authSecret, config.authTokenTtlS),
    metrics,
    catalog,
    inventory,
    seatmaps,
    writer,
    idLease,
    orders,
    broker,
    relay,
    wechat: new WechatClient(config.wechat, () => clock.now().getTime()),
    wechatKeys,
    pay,
    refunds,
    exchanges: new ExchangeService({ db, inventory, catalog, ids, relay, log, config }),
    payments,
    vault,
    risk,
    queue,
    attendees: new AttendeeBook(db, vault),
    ticketKeys,
    checkins: new CheckinService(db, ticketKeys, manualLimiter(redis, config.redisKeyPrefix)),
    bindings: new BindingService(db, ticketKeys, redis, config.redisKeyPrefix),
    reconciler: new Reconciler(db, pay, payments, log),
    admin: await createAdminServices({ config, log, clock, db, readDb, redis, catalog, inventory }),
    lifecycle,
    caches,
    shedder: new LoadShedder(config.shedding, () => lifecycle.inFlight),
    wechatBreaker,
    degrade,
  });
}

export async function closeDeps(d: AppDeps): Promise<void> {
  d.shedder.stop();
  d.wechatBreaker?.shutdown();
  await d.degrade.stop();
  await d.writer.drained();
  await d.queue.drained();
  await d.idLease.stop();
  await d.relay.close();
  await d.broker.close();
  await d.caches.close();
  await Promise.all([d.db.end(), d.writerDb.end(), d.replica.close(), d.redis.quit()]);
}

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
      d.db.query('SELECT 1').then(
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
  app.use(requestIdMiddleware(d.log));
  app.use(d.lifecycle.middleware());
  // Metrics wrap everything so they see the final status the error middleware sets.
  app.use(d.metrics.middleware());
  // A saturated instance refuses at once (after the in-flight count, before any parsing).
  d.shedder.start();
  app.use(d.shedder.middleware());
  // Before the error middleware, so error answers carry the headers too.
  app.use(securityHeaders({ hsts: d.config.env === 'production', h5ConnectSrc: h5Origins(d.config) }));
  app.use(errorMiddleware(d.log));
  app.use(pausedMiddleware(d.degrade));
  // Admin routes parse their bodies themselves, after authentication (admin/http.ts).
  const fanBody = bodyParser({
    enableTypes: ['json'],
    jsonLimit: d.config.bodyLimitBytes,
    encoding: 'utf-8',
  });
  app.use((ctx, next) => (ctx.path.startsWith(ADMIN_PREFIX) ? next() : fanBody(ctx, next)));
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
  // Each router tries its routes in turn: the purchase path and the seat map come first.
  for (const router of [
    orderRoutes(d.orders, auth, d.clock),
    exchangeRoutes(d.exchanges, auth, d.clock),
    catalogRoutes(d.catalog, d.seatmaps, d.clock, () => d.degrade.seatPollMs()),
    queueRoutes(d.queue, auth, d.clock),
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
  ]) {
    app.use(router.routes()).use(router.allowedMethods());
  }
  return app;
}
