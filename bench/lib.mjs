// Shared plumbing of the benchmarks: arguments, ports, pinning, the server process, cleanup.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverNodeFlags } from '../scripts/lib.mjs';
import {
  benchNodeArgs,
  freePort,
  nodeVersionOf,
  serverNode,
  startProcess,
  waitAnswering,
} from './process.mjs';

export { postOrders, purchaseRequest } from './closed-loop.mjs';
export { cpuMeter, idleCpuUsPerMs, mainThreadOf, pidOf, storePids } from './cpu.mjs';
export { helloCeiling } from './hello-ceiling.mjs';
export {
  benchNodeArgs,
  freePort,
  meteredServer,
  nodeVersionOf,
  serverNode,
  startProcess,
} from './process.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
export const dist = (p) => require(`${root}/server/dist/${p}`);
// The jest suites' key clean-up (plain CommonJS).
const { deletePrefixed } = require(`${root}/server/test/helpers/redis-keys.js`);

export function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([\w-]+)$/.exec(argv[i]);
    if (!m) continue;
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) out[m[1]] = true;
    else out[m[1]] = argv[++i];
  }
  return out;
}

/**
 * A load scenario's options: args as parseArgs reads them, smoke (--smoke: a short run, not
 * saved) and num(name, full, small): --name as a number, else `full`, or `small` in a smoke run.
 */
export function scenarioArgs(argv = process.argv.slice(2)) {
  const args = parseArgs(argv);
  const smoke = args.smoke === true;
  const num = (name, full, small = full) => Number(args[name] ?? (smoke ? small : full));
  return { args, smoke, num };
}

/** Ready as a balancer sees it: its dependencies answer and its warm-up is over. */
const waitHealthy = (url) => waitAnswering(`${url}/readyz`);

/** Environment of a benchmark's own server: its own database, key prefix and queues. */
async function benchEnv(name, extra = {}) {
  const port = await freePort();
  return {
    // The simulator's keys are refused in production: the bench runs as development, with its
    // own secrets, so nothing else differs from a production server.
    NODE_ENV: 'development',
    PORT: String(port),
    MYSQL_URL: `mysql://root@127.0.0.1:3306/showtix_bench_${name}_${process.pid}`,
    REDIS_KEY_PREFIX: `bench${process.pid}:`,
    AMQP_PREFIX: `bench${process.pid}`,
    AUTH_SECRET: 'bench-only-secret-0123456789abcdef0123456789',
    ID_SECRET: 'bench-only-id-secret-0123456789abcdef012345',
    TICKET_KEY_SECRET: 'bench-only-ticket-key-secret-0123456789abcdef',
    ADMIN_PASSWORD: 'bench-only-admin-password',
    WECHAT_SIM_KEYS_DIR: path.join(root, 'wechat-sim/test-keys'),
    WECHAT_API_BASE: 'http://127.0.0.1:9',
    WECHAT_PAY_API_BASE: 'http://127.0.0.1:9',
    LOG_LEVEL: 'warn',
    // As production warms an instance up before it is ready (server/src/http/warm-up.ts), the
    // bench's server does; WARM_UP_REQUESTS=0 in the bench's environment measures it cold.
    WARM_UP_REQUESTS: process.env.WARM_UP_REQUESTS ?? '3000',
    ...extra,
  };
}

/**
 * A benchmark's own stack: its database (migrated), key prefix and queues, connections to them
 * (`deps`, which run no jobs: the server does) and the real server, started on demand.
 * `close()` stops every server it started that still runs, then removes all of it; call it in a finally.
 */
export async function openBench(name, extraEnv) {
  const { loadConfig } = dist('config/index.js');
  const { migrateUp } = dist('db/migrate.js');
  const { createDeps, closeDeps } = dist('wiring.js');
  const env = await benchEnv(name, extraEnv);
  // This process never listens: LISTEN_SOCKETS is the server's alone (it may need a newer Node).
  const config = loadConfig({ ...process.env, ...env, JOBS_ENABLED: 'false', LISTEN_SOCKETS: '1' });
  await migrateUp(config.mysqlUrl);
  const deps = await createDeps(config);
  const url = `http://127.0.0.1:${env.PORT}`;
  const servers = [];
  /**
   * dist/main.js with the server's own Node flags (server/src/runtime-flags.ts), then
   * BENCH_SERVER_NODE_ARGS (e.g. --cpu-prof; a V8 flag given twice takes the later value, so
   * `--max-semi-space-size=16` measures Node's default) and `serverEnv`, once it answers;
   * on the Node binary BENCH_SERVER_NODE names, else on this one. Each of the three may come from
   * `serverEnv` (bench/ab can run A and B on two Node versions, with two sets of Node flags, or
   * from two builds: BENCH_SERVER_DIST, another checkout's server/dist) or this process's
   * environment (BENCH_SERVER_DIST only from `serverEnv`).
   */
  const launch = async (serverEnv, serverUrl, opts) => {
    const argsOf = serverEnv.BENCH_SERVER_NODE_ARGS ?? process.env.BENCH_SERVER_NODE_ARGS;
    const nodeArgs = [...serverNodeFlags(), ...benchNodeArgs(argsOf)];
    const bin = serverEnv.BENCH_SERVER_NODE ?? serverNode();
    const dist = serverEnv.BENCH_SERVER_DIST ?? path.join(root, 'server/dist');
    const s = startProcess(bin, [...nodeArgs, path.join(dist, 'main.js')], serverEnv, opts);
    servers.push(s);
    await waitHealthy(serverUrl);
    return s;
  };
  return {
    deps,
    url,
    /** The bench's configuration as its server reads it (but with jobs off here). */
    config,
    /** The bench's server on `url`, once it answers. */
    startServer: (opts, overrides = {}) => launch({ ...env, ...overrides }, url, opts),
    /**
     * Another server on the same database, key prefix and queues, on a port of its own, with
     * `overrides` on top of the bench's environment (bench/ab compares two of them).
     */
    async startServerWith(overrides) {
      const port = await freePort();
      const otherUrl = `http://127.0.0.1:${port}`;
      const other = await launch({ ...env, ...overrides, PORT: String(port) }, otherUrl);
      return { ...other, url: otherUrl };
    },
    async close() {
      for (const s of servers) await s.stop();
      await closeDeps(deps);
      await cleanup(config);
    },
  };
}

/**
 * Lua script calls (EVALSHA and EVAL) the Redis server has answered so far, from INFO
 * commandstats: the difference over a run is its script calls, every client's (the server's jobs
 * too), so run nothing else against this Redis meanwhile.
 */
export async function redisScriptCalls(redis) {
  const info = await redis.info('commandstats');
  let calls = 0;
  for (const m of info.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)) calls += Number(m[1]);
  return calls;
}

/** Keeps a full run's result in bench/results/, named after its scenario and `at` (an ISO time). */
export function saveResult(result, at) {
  const dir = path.join(root, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${result.scenario}-${at.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
}

/**
 * Ends a run the way every scenario does: adds the servers' Node version (`server_node`), keeps
 * the result (full runs only, as bench/results/`<scenario>-<at>.json`), then prints it as the
 * last line, which is what tooling reads.
 */
export function report(result, { save, at }) {
  result.server_node ??= nodeVersionOf();
  if (save) saveResult(result, at);
  console.log(JSON.stringify(result));
}

/** Runs a scenario's main: an error is printed and ends the process with exit code 1. */
export function runMain(main) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

/** Every RabbitMQ queue a server of this config declares: each consumer's, its retry and dead letters. */
function queueNames(config) {
  const { QUEUES } = dist('workers.js');
  return Object.keys(QUEUES).flatMap((name) =>
    ['', '.retry', '.dead'].map((tail) => `${config.amqpPrefix}.${name}${tail}`),
  );
}

/** The queues of this config still on RabbitMQ (after cleanup: none). */
export async function leftQueues(config) {
  const { default: amqp } = await import('amqplib');
  const conn = await amqp.connect(config.amqpUrl);
  const left = [];
  try {
    for (const q of queueNames(config)) {
      // checkQueue closes its channel when the queue is missing: one channel per look.
      const ch = await conn.createChannel();
      ch.on('error', () => {});
      if (
        await ch.checkQueue(q).then(
          () => true,
          () => false,
        )
      )
        left.push(q);
      await ch.close().catch(() => {});
    }
  } finally {
    await conn.close();
  }
  return left;
}

/**
 * Drops the benchmark's database, deletes its RabbitMQ queues and (unless the run had a Redis of
 * its own, already stopped: `redisKeys: false`) its Redis keys.
 */
export async function cleanup(config, { redisKeys = true } = {}) {
  const { default: amqp } = await import('amqplib');
  try {
    const conn = await amqp.connect(config.amqpUrl);
    const ch = await conn.createChannel();
    for (const q of queueNames(config)) await ch.deleteQueue(q);
    await ch.deleteExchange(`${config.amqpPrefix}.events`);
    await conn.close();
  } catch (err) {
    // RabbitMQ down (nothing was declared), or unreachable at this URL: say so, queues may be left.
    console.warn(`cleanup: RabbitMQ queues of ${config.amqpPrefix} not deleted: ${err.message}`);
  }
  const { dropDatabase } = dist('db/pool.js');
  await dropDatabase(config.mysqlUrl);
  if (!redisKeys) return;
  const { default: Redis } = await import('ioredis');
  const r = new Redis(config.redisUrl);
  await deletePrefixed(r, config.redisKeyPrefix);
  await r.quit();
}

/**
 * A session of `showId` on sale from `now`, as the benches seed them: its seats at `seatFen`
 * (tier 看台) and the standing zone `zoneName` at `zoneFen` (tier `zoneTier`, the zone's name
 * unless given). Returns its id and its catalog.
 */
export async function openSession(deps, o) {
  const { insertSession } = dist('catalog/admin-repo.js');
  const { openSale } = dist('jobs/session-lifecycle.js');
  const { loadSessionCatalog } = dist('catalog/repo.js');
  const id = await insertSession(deps.db, {
    showId: o.showId,
    startsAt: o.startsAt,
    saleStartsAt: o.now,
    purchaseLimit: o.purchaseLimit,
    holdMinutes: o.holdMinutes,
    tiers: [
      { name: '看台', priceFen: o.seatFen },
      { name: o.zoneTier ?? o.zoneName, priceFen: o.zoneFen, zoneName: o.zoneName },
    ],
  });
  await openSale(deps, id, o.now);
  return { id, cat: await loadSessionCatalog(deps.db, id) };
}

export function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
}

/**
 * The p99 latency (ms, one decimal) of each status's answers, from [latencyMs, status] pairs:
 * which answers make the tail (a sale waits on Redis and MySQL, a refusal mostly on neither).
 */
export function p99ByStatus(pairs) {
  const by = {};
  for (const [ms, status] of pairs) (by[status] ??= []).push(ms);
  const p99 = (l) =>
    Number(
      percentile(
        l.sort((x, y) => x - y),
        99,
      ).toFixed(1),
    );
  return Object.fromEntries(Object.entries(by).map(([st, l]) => [st, p99(l)]));
}

/** Deterministic choices (mulberry32), so two runs ask for the same things. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs fn over items with at most `n` in flight. */
export async function pool(items, n, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}
