import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { deleteTopology } from '../../src/outbox/topology';
import pino from 'pino';
import { closeDeps, createDeps, type AppDeps } from '../../src/wiring';
import { ManualClock } from '../../src/clock';
import { loadConfig, type Config } from '../../src/config';
import { dropDatabase } from '../../src/db/pool';
import { migrateUp } from '../../src/db/migrate';
import { deletePrefixed } from './redis-keys';

const BASE_MYSQL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
const BASE_REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
/** Set by the Cluster suite (test/cluster): every test env then runs on that Redis Cluster. */
const CLUSTER_NODES = process.env.TEST_REDIS_CLUSTER_NODES;

export interface TestEnv {
  config: Config;
  deps: AppDeps;
  clock: ManualClock;
  close(): Promise<void>;
}

/** Config for one test file: its own database and Redis key prefix, so runs never collide. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  const id = `${process.pid}_${randomBytes(4).toString('hex')}`;
  return loadConfig({
    NODE_ENV: 'test',
    MYSQL_URL: `${BASE_MYSQL}/tk_test_${id}`,
    REDIS_URL: BASE_REDIS,
    REDIS_KEY_PREFIX: `tk_test_${id}:`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    JOBS_ENABLED: 'false',
    REBUILD_SETTLE_MS: '0',
    SEAT_STATES_CACHE_MS: '0', // tests read seat states right after changing them
    AMQP_PREFIX: `tk_test_${id}`,
    // Overload protection off unless a test turns it on (test/resilience): on a shared, busy
    // test machine, shedding and the WeChat breaker would answer for reasons of their own.
    SHED_EVENT_LOOP_LAG_MS: '0',
    SHED_INFLIGHT_MAX: '0',
    WECHAT_BREAKER_ERROR_PCT: '0',
    ...(CLUSTER_NODES ? { REDIS_CLUSTER_NODES: CLUSTER_NODES } : {}),
    ...overrides,
  });
}

/** Deletes every key under the prefix (never FLUSHALL: other runs share this Redis). */
export async function deleteKeys(url: string, prefix: string): Promise<void> {
  if (CLUSTER_NODES) return deleteClusterKeys(CLUSTER_NODES.split(','), prefix);
  const r = new Redis(url);
  try {
    await deletePrefixed(r, prefix);
  } finally {
    await r.quit();
  }
}

/** On a Cluster, every master holds a share of the keys: scan each, delete key by key (slots differ). */
async function deleteClusterKeys(nodes: string[], prefix: string): Promise<void> {
  const c = new Redis.Cluster(nodes.map((n) => ({ host: n.split(':')[0]!, port: Number(n.split(':')[1]) })));
  try {
    for (const node of c.nodes('master')) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        await Promise.all(keys.map((k) => c.del(k)));
        cursor = next;
      } while (cursor !== '0');
    }
  } finally {
    await c.quit();
  }
}

/** How long one step of an environment's set-up may take before it fails, named. */
const setUpStepMs = 30_000;

/**
 * The step's promise, or a rejection naming it after `ms`: a set-up that hangs says where, not
 * only that the hook's 60 s ran out (CI's one hung beforeAll said nothing more).
 */
export function step<T>(what: string, p: Promise<T>, ms = setUpStepMs): Promise<T> {
  return finishedWithin(`test set-up: ${what}`, p, ms);
}

/** `p`, or a rejection "<what> did not finish in <ms> ms": a hang fails as itself, named. */
export async function finishedWithin<T>(what: string, p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish in ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `mysqlVia` ('host:port', e.g. a TcpProxy) is where the server reaches MySQL; the test's own
 * migration and clean-up still go direct, so they work while that path is cut.
 */
export async function createTestEnv(
  overrides: Record<string, string> = {},
  o: { mysqlVia?: string } = {},
): Promise<TestEnv> {
  const config = testConfig(overrides);
  await step('the migrations', migrateUp(config.mysqlUrl));
  const clock = new ManualClock(Math.floor(Date.now() / 1000) * 1000);
  const served = o.mysqlVia
    ? { ...config, mysqlUrl: config.mysqlUrl.replace(/@[^/]+\//, `@${o.mysqlVia}/`) }
    : config;
  const deps = await step(
    'the dependencies',
    createDeps(served, { clock, log: pino({ level: config.logLevel }) }),
  );
  return {
    config,
    deps,
    clock,
    async close() {
      await closeDeps(deps);
      await deleteTopology(config.amqpUrl, config.amqpPrefix);
      await deleteKeys(config.redisUrl, config.redisKeyPrefix);
      await dropDatabase(config.mysqlUrl);
    },
  };
}

/** Runs fn in an environment of its own (for a test that alters the schema, say), closed however fn ends. */
export async function withTestEnv<T>(fn: (env: TestEnv) => Promise<T>): Promise<T> {
  const env = await createTestEnv();
  try {
    return await fn(env);
  } finally {
    await env.close();
  }
}
