import path from 'node:path';
import { z } from 'zod';
import { loadWechatConfig, type WechatConfig } from './wechat';
import { loadRiskConfig, type RiskConfig } from './risk';
import { loadRecoveryConfig, type RecoveryConfig } from './recovery';
import { loadResilienceConfig, type ResilienceConfig } from './resilience';
import { loadAdminConfig, type AdminConfig } from './admin';
import { canReusePort, requestContextOn } from './runtime';

/**
 * All configuration, read and validated once at start-up. Limits carry their unit last
 * (holdGraceMs, batchOrdersMax) so a reader never has to guess seconds vs milliseconds.
 */
/**
 * The warm-up's default in production (about a second): in five alternated pairs of the
 * flash-sale bench, the sale's first-second p99 had a median of 138 ms with it, 382 without.
 */
const WARM_UP_REQUESTS_PRODUCTION = 3_000;
const int = (def: number) => z.coerce.number().int().nonnegative().default(def);
const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(def ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

const EnvSchema = z.object({
  /** Unset means production: development defaults are used only when asked for by name. */
  NODE_ENV: z.enum(['development', 'test', 'production']).optional(),
  HOST: z.string().default('127.0.0.1'),
  PORT: int(3000),
  /**
   * The API socket's accept queue (Node's default is 511; the kernel caps it at somaxconn). An
   * on-sale opens thousands of connections at once: past the queue the kernel drops the
   * handshake's last step, and each such client waits for TCP's retransmits (a second or more)
   * before its first request is even read.
   */
  LISTEN_BACKLOG: z.coerce.number().int().min(1).max(65535).default(4096),
  /** Listening sockets of the API on its one port (SO_REUSEPORT past 1; config/runtime.ts). */
  LISTEN_SOCKETS: z.coerce.number().int().min(1).max(64).default(1),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Every log line a request causes carries its id (auto: where that is cheap, config/runtime.ts). */
  LOG_REQUEST_CONTEXT: z.enum(['auto', 'on', 'off']).default('auto'),
  LEAN_LANE: z.enum(['on', 'off']).default('on'),
  MYSQL_URL: z.string().default('mysql://root@127.0.0.1:3306/showtix'),
  MYSQL_POOL_SIZE: int(16),
  /** The caller's stack on every query, for its error (db/pool.ts PoolOptions.queryStacks). */
  MYSQL_QUERY_STACKS: z.enum(['on', 'off']).default('off'),
  /** Optional read replica for reads that may be a second stale (db/replica.ts). */
  MYSQL_REPLICA_URL: z
    .string()
    .regex(/^mysql:\/\/[^/]+\/\w+$/, 'mysql://user:pass@host:port/database')
    .optional(),
  MYSQL_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(0).default(1_000),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379/0'),
  REDIS_KEY_PREFIX: z.string().default('tk:'),
  AUTH_SECRET: z.string().min(32).optional(),
  AUTH_TOKEN_TTL_S: int(7 * 24 * 3600),
  BODY_LIMIT_BYTES: int(64 * 1024),
  HOLD_GRACE_MS: int(30_000),
  BATCH_ORDERS_MAX: int(200),
  BATCH_INFLIGHT_MAX: int(4),
  SEAT_STATES_CACHE_MS: int(500),
  /**
   * Staleness bound of cheap purchase refusals (orders/refusals.ts); 0 turns them off. 30 s:
   * releases reach every instance at once, so the bound only covers a lost message; against 5 s
   * it took a third of the take-script calls off a flash sale.
   */
  REFUSAL_SNAPSHOT_MAX_AGE_MS: int(30_000),
  CATALOG_CACHE_MS: int(5_000),
  /**
   * Purchases the instance sends itself before it is ready (http/warm-up.ts); unset: 3,000 in
   * production, none in development and test. 0 turns it off.
   */
  WARM_UP_REQUESTS: z.coerce.number().int().min(0).max(100_000).optional(),
  JOBS_ENABLED: bool(true),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  H5_DIR: z.string().optional(),
  /** Serve the fan's H5 build at "/" (default: only in development and test; it needs the simulator). */
  SERVE_H5: z.enum(['true', 'false', '1', '0']).optional(),
  /** Deprecated: TRUST_PROXY=true is TRUST_PROXY_HOPS=1. */
  /** Bearer token /metrics requires; unset: open in development/test, 404 in production. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** ROLE=worker: port of its /metrics, /livez and /readyz (unset: a worker serves no HTTP at all). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  TRUST_PROXY: bool(false),
  /** How many reverse proxies in front of this server append to X-Forwarded-For (0: none). */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).optional(),
  ID_SECRET: z.string().min(32).optional(),
  TICKET_KEY_SECRET: z.string().min(32).optional(),
  TICKET_KEY_IDS: z
    .string()
    .regex(/^[\w-]{1,16}(,[\w-]{1,16})*$/)
    .default('k1'),
  EXPIRY_INTERVAL_MS: int(1_000),
  ORPHAN_GRACE_MS: int(60_000),
  REBUILD_SETTLE_MS: int(300),
  AMQP_URL: z.string().default('amqp://guest:guest@127.0.0.1:5672'),
  AMQP_PREFIX: z.string().default('showtix'),
  AMQP_QUEUE_TYPE: z.enum(['classic', 'quorum']).default('classic'),
  OUTBOX_INTERVAL_MS: int(500),
  CONSUMER_ATTEMPTS_MAX: int(8),
  CONSUMER_BACKOFF_MS: int(1_000),
  PAY_CHECK_AFTER_MS: int(60_000),
  SHUTDOWN_DRAIN_MS: int(10_000),
  MIGRATE_LOCK_TIMEOUT_S: int(300),
  REDIS_CLUSTER_NODES: z
    .string()
    .regex(/^[\w.-]+:\d{1,5}(,[\w.-]+:\d{1,5})*$/, 'comma-separated host:port seed nodes')
    .optional(),
  LEADER_LEASE_MS: z.coerce.number().int().min(300).default(10_000),
});

export type Env = z.infer<typeof EnvSchema>;
export type NodeEnv = 'development' | 'test' | 'production';

export interface Config extends RiskConfig, ResilienceConfig {
  env: NodeEnv;
  host: string;
  port: number;
  listenBacklog: number;
  /**
   * How many sockets the API listens on, all on its one port (SO_REUSEPORT when more than one):
   * Node's event loop accepts one connection per socket per turn (Node 20 and 24), so a saturated
   * instance whose turns take tens of milliseconds left a crowd of new connections waiting seconds
   * in the kernel's accept queue before their first request was read. More sockets, more accepts
   * a turn (the kernel spreads connections over them).
   */
  listenSockets: number;
  logLevel: Env['LOG_LEVEL'];
  /**
   * Whether every log line a request causes, in any service, carries its X-Request-Id
   * (AsyncLocalStorage). Off, the id is still on the answer and on the request's own lines (its
   * failure, its debug line).
   */
  logRequestContext: boolean;
  /**
   * Whether the purchase, the waiting room's poll and join and the seat states are answered on
   * the lean lane, before Koa (http/lean.ts). Off, every request goes through Koa (for comparing
   * the two, and as a way back).
   */
  leanLane: boolean;
  mysqlUrl: string;
  mysqlPoolSize: number;
  mysqlQueryStacks: boolean;
  /** Read replica (unset: every read on the primary). */
  mysqlReplicaUrl: string | undefined;
  /** Above this lag (or unknown lag) the replica's reads go to the primary. */
  mysqlReplicaMaxLagMs: number;
  redisUrl: string;
  redisKeyPrefix: string;
  authSecret: string;
  authTokenTtlS: number;
  bodyLimitBytes: number;
  /** Redis holds outlive the MySQL order's expire_at by this much, so the expiry job frees them first. */
  holdGraceMs: number;
  batchOrdersMax: number;
  batchInflightMax: number;
  seatStatesCacheMs: number;
  /** How long a fact learned from the take script may refuse a purchase (orders/refusals.ts). */
  refusalSnapshotMaxAgeMs: number;
  catalogCacheMs: number;
  /** Requests of the warm-up before the instance turns ready (http/warm-up.ts); 0: none. */
  warmUpRequests: number;
  jobsEnabled: boolean;
  /** all: HTTP and workers; api: HTTP only; worker: consumers and jobs only (scale them apart). */
  role: 'all' | 'api' | 'worker';
  /** Behind a reverse proxy: take the client address from X-Forwarded-For (rate limits, risk flags). */
  trustProxy: boolean;
  /**
   * Trusted proxies in front of the server. The client address is the one the outermost trusted
   * proxy saw: counted from the RIGHT of X-Forwarded-For, since anything left of it is whatever
   * the client sent.
   */
  trustProxyHops: number;
  metricsToken: string | undefined;
  /** ROLE=worker: where it serves /metrics, /livez and /readyz (0: any free port); unset: no HTTP. */
  metricsPort: number | undefined;
  /** The fan's H5 build served at "/" (default: dist/h5 of the repository), when serveH5. */
  h5Dir: string;
  serveH5: boolean;
  /** Keys for attendees' names and ID numbers (encryption and lookup hash) derive from this. */
  idSecret: string;
  /** Ticket QR signing keys derive from this and their ids; the first id signs. */
  ticketKeySecret: string;
  ticketKeyIds: string[];
  expiryIntervalMs: number;
  /** A Redis hold with no live MySQL order this long after its expiry is released by the sweeper. */
  orphanGraceMs: number;
  rebuildSettleMs: number;
  amqpUrl: string;
  /** Exchange and queue names start with this (tests use their own). */
  amqpPrefix: string;
  /** RabbitMQ queue type of new deployments (outbox/broker.ts: why classic stays the default). */
  amqpQueueType: 'classic' | 'quorum';
  outboxIntervalMs: number;
  consumerAttemptsMax: number;
  /** First retry delay of a failed consumer; doubles per attempt. */
  consumerBackoffMs: number;
  /** A pending order whose payment started this long ago is queried at WeChat. */
  payCheckAfterMs: number;
  /** On SIGTERM, requests already running get this long to finish before connections are cut. */
  shutdownDrainMs: number;
  /** How long an instance waits for another one's migrations (the migration lock). */
  migrateLockTimeoutS: number;
  /** Singleton jobs' leader lease; renewed every third of it, taken over within it when the leader dies. */
  leaderLeaseMs: number;
  /** Redis Cluster seed nodes (host:port); empty: the single Redis of redisUrl. */
  redisClusterNodes: string[];
  wechat: WechatConfig;
  admin: AdminConfig;
  /** Periods of the recovery jobs (config/recovery.ts). */
  recovery: RecoveryConfig;
}

/** Development-only values: usable only with NODE_ENV=development or test, never by accident. */
const DEV_SECRETS = {
  AUTH_SECRET: 'development-only-secret-never-use-in-production!',
  ID_SECRET: 'development-only-id-secret-never-in-production',
  TICKET_KEY_SECRET: 'development-only-ticket-key-secret-not-for-production',
} as const;

/**
 * Thrown when the configuration is unsafe or incomplete; `problems` names each variable, so an
 * operator fixes them all in one go rather than one restart at a time.
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Refusing to start: unsafe or missing configuration\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
}

const databaseOf = (url: string) => url.replace(/\?.*$/, '').split('/').pop();

/** Settings that are each valid but refuse to start together. */
function mismatches(e: z.infer<typeof EnvSchema>): string[] {
  const problems: string[] = [];
  // A worker is nothing but its jobs and consumers: without them it would run and do nothing.
  if (e.ROLE === 'worker' && !e.JOBS_ENABLED)
    problems.push('ROLE=worker with JOBS_ENABLED=false: a worker runs only jobs and consumers');
  if (e.MYSQL_REPLICA_URL && databaseOf(e.MYSQL_REPLICA_URL) !== databaseOf(e.MYSQL_URL))
    problems.push('MYSQL_REPLICA_URL must name the same database as MYSQL_URL (a replica of it)');
  if (e.LISTEN_SOCKETS > 1 && !canReusePort(process.versions.node))
    problems.push(
      `LISTEN_SOCKETS=${e.LISTEN_SOCKETS} needs SO_REUSEPORT (Node.js 22.12+ on Linux); this is Node.js ${process.versions.node} on ${process.platform}: set 1`,
    );
  return problems;
}

/** Settings whose default depends on NODE_ENV (dev: development or test). */
function envDefaults(e: Env, dev: boolean): Pick<Config, 'serveH5' | 'warmUpRequests'> {
  return {
    serveH5: e.SERVE_H5 ? e.SERVE_H5 === 'true' || e.SERVE_H5 === '1' : dev,
    warmUpRequests: e.WARM_UP_REQUESTS ?? (dev ? 0 : WARM_UP_REQUESTS_PRODUCTION),
  };
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) throw new Error(`Invalid configuration: ${z.prettifyError(parsed.error)}`);
  const e = parsed.data;
  const env: NodeEnv = e.NODE_ENV ?? 'production';
  const dev = env === 'development' || env === 'test';
  const problems: string[] = [];
  const unset = e.NODE_ENV ? `NODE_ENV=${env}` : 'NODE_ENV is unset, so production';
  const secret = (name: keyof typeof DEV_SECRETS): string => {
    const v = e[name];
    if (v) return v;
    if (!dev) problems.push(`${name}: required (32+ random characters; ${unset} has no development default)`);
    return DEV_SECRETS[name];
  };
  const authSecret = secret('AUTH_SECRET');
  const idSecret = secret('ID_SECRET');
  const ticketKeySecret = secret('TICKET_KEY_SECRET');
  const wechat = loadWechatConfig(source, { dev, port: e.PORT, problems });
  const admin = loadAdminConfig(source, env);
  const hops = e.TRUST_PROXY_HOPS ?? (e.TRUST_PROXY ? 1 : 0);
  problems.push(...mismatches(e));
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze({
    env,
    host: e.HOST,
    port: e.PORT,
    listenBacklog: e.LISTEN_BACKLOG,
    listenSockets: e.LISTEN_SOCKETS,
    logLevel: e.LOG_LEVEL,
    logRequestContext: requestContextOn(e.LOG_REQUEST_CONTEXT, source),
    leanLane: e.LEAN_LANE === 'on',
    mysqlUrl: e.MYSQL_URL,
    mysqlPoolSize: e.MYSQL_POOL_SIZE,
    mysqlQueryStacks: e.MYSQL_QUERY_STACKS === 'on',
    mysqlReplicaUrl: e.MYSQL_REPLICA_URL,
    mysqlReplicaMaxLagMs: e.MYSQL_REPLICA_MAX_LAG_MS,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    authSecret,
    authTokenTtlS: e.AUTH_TOKEN_TTL_S,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    holdGraceMs: e.HOLD_GRACE_MS,
    batchOrdersMax: e.BATCH_ORDERS_MAX,
    batchInflightMax: e.BATCH_INFLIGHT_MAX,
    seatStatesCacheMs: e.SEAT_STATES_CACHE_MS,
    refusalSnapshotMaxAgeMs: e.REFUSAL_SNAPSHOT_MAX_AGE_MS,
    catalogCacheMs: e.CATALOG_CACHE_MS,
    jobsEnabled: e.JOBS_ENABLED,
    role: e.ROLE,
    trustProxy: hops > 0,
    trustProxyHops: hops,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    h5Dir: e.H5_DIR ?? path.resolve(__dirname, '../../../dist/h5'),
    ...envDefaults(e, dev),
    idSecret,
    ticketKeySecret,
    ticketKeyIds: e.TICKET_KEY_IDS.split(','),
    expiryIntervalMs: e.EXPIRY_INTERVAL_MS,
    orphanGraceMs: e.ORPHAN_GRACE_MS,
    rebuildSettleMs: e.REBUILD_SETTLE_MS,
    amqpUrl: e.AMQP_URL,
    amqpPrefix: e.AMQP_PREFIX,
    amqpQueueType: e.AMQP_QUEUE_TYPE,
    outboxIntervalMs: e.OUTBOX_INTERVAL_MS,
    consumerAttemptsMax: e.CONSUMER_ATTEMPTS_MAX,
    consumerBackoffMs: e.CONSUMER_BACKOFF_MS,
    payCheckAfterMs: e.PAY_CHECK_AFTER_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    migrateLockTimeoutS: e.MIGRATE_LOCK_TIMEOUT_S,
    leaderLeaseMs: e.LEADER_LEASE_MS,
    redisClusterNodes: e.REDIS_CLUSTER_NODES?.split(',') ?? [],
    wechat,
    ...loadRiskConfig(source),
    ...loadResilienceConfig(source),
    admin,
    recovery: loadRecoveryConfig(source),
  });
}
