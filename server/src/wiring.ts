import pino, { type Logger } from 'pino';
import type { Config } from './config';
import { systemClock, type Clock } from './clock';
import { createPool, type Db } from './db/pool';
import { ReplicaRouter } from './db/replica';
import { createRedis } from './redis/client';
import { Keys } from './redis/keys';
import type { ScriptedRedis } from './redis/scripts';
import { TokenService } from './http/auth';
import { Metrics } from './http/metrics';
import { CatalogService } from './catalog/service';
import { SeatMapService } from './inventory/seatmap';
import { SeatVersions } from './inventory/seat-delta';
import { InventoryService } from './inventory/service';
import { IdGenerator } from './orders/ids';
import { IdNodeLease } from './orders/id-lease';
import { OrderWriter } from './orders/writer';
import { OrderService } from './orders/service';
import { RefusalSnapshot } from './orders/refusals';
import { Broker } from './outbox/broker';
import { OutboxRelay } from './outbox/relay';
import { WechatClient } from './wechat/client';
import { trustedWechatKeys } from './wechat/keys';
import { WechatPay } from './wechat/pay';
import { RefundService } from './refunds/service';
import { ExchangeService } from './exchanges/service';
import { PaymentService } from './payments/service';
import { paymentLedger } from './payments/ledger';
import { QUEUES } from './outbox/topology';
import { IdentityVault } from './attendees/crypto';
import { AdmissionTokens } from './queue/tokens';
import { QueueService } from './queue/service';
import { RiskService } from './risk/service';
import { riskOptions } from './config/risk';
import { AttendeeBook } from './attendees/service';
import { TicketKeys } from './tickets/keys';
import { BindingService } from './tickets/bindings';
import { CheckinService } from './checkin/service';
import { manualLimiter } from './checkin/manual';
import { Reconciler } from './payments/reconcile';
import { createAdminServices, type AdminServices } from './admin-wiring';
import { Lifecycle } from './http/lifecycle';
import { requestIdMixin } from './http/request-id';
import { readinessCheck } from './http/health';
import { CacheInvalidation } from './cache/invalidation';
import { LoadShedder } from './http/shedding';
import { WechatBreaker } from './wechat/breaker';
import { DegradeService } from './degrade/service';
import { WaitlistService } from './waitlist/service';

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

/** Real-name waiting room: which account joined with each of these ID hashes (null: none). */
function queuedIdsOf(d: Pick<AppDeps, 'redis' | 'keys'>) {
  return (sessionId: string, idHashes: string[]) =>
    d.redis.hmget(d.keys.session(sessionId).queue.ids, ...idHashes);
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
    queuedIds: queuedIdsOf(d),
  });
  d.inventory.onFreed((id) => waitlist.kick(id, () => d.clock.now()));
  return { ...d, waitlist };
}

/** The circuit breaker every WeChat Pay call goes through (none with WECHAT_BREAKER_ERROR_PCT=0). */
function breakerOf(config: Config, log: Logger): WechatBreaker | undefined {
  if (config.wechatBreaker.errorThresholdPct <= 0) return undefined;
  const breaker = new WechatBreaker(config.wechatBreaker);
  breaker.onOpen(() => log.error('WeChat Pay breaker opened: calls fail fast until a trial call succeeds'));
  return breaker;
}

/** The stores: MySQL (the pool, the group commit's pool, the replica), Redis, the cache channel. */
async function storesOf(config: Config, log: Logger) {
  const queryStacks = config.mysqlQueryStacks;
  const db = createPool(config.mysqlUrl, config.mysqlPoolSize, { queryStacks });
  const writerDb = createPool(config.mysqlUrl, config.batchInflightMax + 2, {
    multipleStatements: true,
    queryStacks,
  });
  const replica = new ReplicaRouter(db, config.mysqlReplicaUrl, {
    maxLagMs: config.mysqlReplicaMaxLagMs,
    poolSize: config.mysqlPoolSize,
    queryStacks,
    log,
  });
  await replica.start();
  const readDb = replica.readDb;
  const redis = createRedis(config.redisUrl, config.redisClusterNodes, log);
  const keys = new Keys(config.redisKeyPrefix);
  const caches = new CacheInvalidation(redis, keys.cacheChannel(), log);
  return { db, writerDb, replica, readDb, redis, keys, caches };
}

/** WeChat Pay and the money that goes through it: refunds, then payments (which use refunds). */
function moneyOf(
  config: Config,
  d: Pick<AppDeps, 'log' | 'clock' | 'db' | 'relay' | 'catalog' | 'risk' | 'metrics'>,
) {
  const { log, clock, db, relay, catalog, risk, metrics } = d;
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
    onPaid: (userIds) => risk.onPaid(userIds),
    onApplied: (outcome, n) => metrics.payments.inc({ outcome }, n),
  });
  return { wechatKeys, wechatBreaker, pay, refunds, payments };
}

/** The waiting room, with its settings (turn, rate, polls answered without Redis). */
function queueOf(
  config: Config,
  d: Pick<AppDeps, 'db' | 'redis' | 'keys' | 'catalog' | 'vault' | 'risk' | 'log'> & {
    writerDb: Db;
    admissions: AdmissionTokens;
  },
): QueueService {
  const { db, writerDb, redis, keys, catalog, admissions, vault, risk, log } = d;
  return new QueueService(db, writerDb, redis, keys, catalog, admissions, vault, risk, log, config.queue);
}

/**
 * What this instance knows makes a purchase fail (orders/refusals.ts). Units back or a sale
 * opened here: every instance drops what it knew refused in that session (at once here, in
 * milliseconds elsewhere; the snapshot's age bounds a lost message).
 */
function refusalsOf(config: Config, inventory: InventoryService, caches: CacheInvalidation): RefusalSnapshot {
  const refusals = new RefusalSnapshot(config.refusalSnapshotMaxAgeMs);
  inventory.onFreed((id) => caches.invalidate('refusals', id));
  caches.on('refusals', (id) => refusals.forget(id));
  return refusals;
}

/** The purchase path. Orders use payments (the cancel guard) and refunds, never the other way round. */
function ordersOf(
  config: Config,
  d: Pick<
    AppDeps,
    | 'db'
    | 'writer'
    | 'inventory'
    | 'catalog'
    | 'log'
    | 'vault'
    | 'risk'
    | 'metrics'
    | 'redis'
    | 'keys'
    | 'payments'
    | 'refunds'
  >,
  own: { ids: IdGenerator; admissions: AdmissionTokens; refusals: RefusalSnapshot },
): OrderService {
  const { db, writer, inventory, catalog, log, vault, risk, metrics, payments, refunds } = d;
  return new OrderService({
    db,
    writer,
    inventory,
    catalog,
    ids: own.ids,
    log,
    holdGraceMs: config.holdGraceMs,
    vault,
    admissions: own.admissions,
    risk,
    refusals: own.refusals,
    created: metrics.ordersCreated,
    queuedIds: queuedIdsOf(d),
    guard: (id, now) => payments.settleBeforeCancel(id, now),
    refundOrder: (o) => refunds.refundOrder(o),
  });
}

/**
 * The per-instance caches every instance drops on a message (the session's catalog, seat map
 * and refusals; the blocklist), and the degradation switches that overlay the catalog. Starts
 * listening once every handler is in place.
 */
async function cachedViewsOf(
  d: Pick<AppDeps, 'db' | 'log' | 'caches' | 'catalog' | 'seatmaps' | 'risk'>,
  refusals: RefusalSnapshot,
): Promise<DegradeService> {
  const { db, log, caches, catalog, seatmaps, risk } = d;
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
  return degrade;
}

export async function createDeps(
  config: Config,
  opts: { clock?: Clock; log?: Logger } = {},
): Promise<AppDeps> {
  const log = opts.log ?? pino({ level: config.logLevel, mixin: requestIdMixin });
  const clock = opts.clock ?? systemClock;
  const stores = await storesOf(config, log);
  const { db, writerDb, readDb, redis, keys, caches } = stores;
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
  const refusals = refusalsOf(config, inventory, caches);
  const metrics = new Metrics(config.env !== 'test');
  const queue = queueOf(config, { ...stores, catalog, admissions, vault, risk, log });
  const broker = new Broker(config.amqpUrl, config.amqpPrefix, QUEUES, log, config.amqpQueueType);
  const relay = new OutboxRelay(db, broker, log);
  const money = moneyOf(config, { log, clock, db, relay, catalog, risk, metrics });
  const { pay, refunds, payments } = money;
  const orders = ordersOf(
    config,
    { db, writer, inventory, catalog, log, vault, risk, metrics, redis, keys, payments, refunds },
    { ids, admissions, refusals },
  );
  const seatmaps = new SeatMapService(
    catalog,
    inventory,
    config.seatStatesCacheMs,
    new SeatVersions(redis, keys),
  );
  const degrade = await cachedViewsOf({ db, log, caches, catalog, seatmaps, risk }, refusals);
  const lifecycle = new Lifecycle();
  metrics.watchReadiness(readinessCheck({ db, redis, broker, lifecycle }));
  await degrade.start();
  return withWaitlist(ids, {
    config,
    log,
    clock,
    ...stores,
    ...money,
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
    exchanges: new ExchangeService({ db, inventory, catalog, ids, relay, log, config }),
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
    shedder: shedderOf(config, lifecycle, metrics),
    degrade,
  });
}

/** The shedder, counting the lifecycle's requests in flight; its bound is shown on /metrics. */
function shedderOf(config: Config, lifecycle: Lifecycle, metrics: Metrics): LoadShedder {
  const shedder = new LoadShedder(config.shedding, () => lifecycle.inFlight);
  metrics.watchShedding(() => shedder.inflightLimit);
  return shedder;
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
