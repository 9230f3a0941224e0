// The chaos run's own stack: its database, its own redis-server, TCP proxies to the shared MySQL
// and RabbitMQ (cut to inject outages without touching the shared services), an in-process WeChat
// simulator, a round-robin balancer in front of the API processes, and the processes themselves
// (server/dist/main.js with ROLE=api / ROLE=worker). Everything is stopped and removed by close().
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { cleanup, dist, freePort, root } from '../lib.mjs';
import { serverNodeFlags } from '../../scripts/lib.mjs';
import { answersWithin } from '../../scripts/lib/answering.js';

const require = createRequire(import.meta.url);
// TCP proxies to the shared MySQL and RabbitMQ: set('down') cuts one, set('blackhole') loses its
// answers, set('up') heals it (the jest suites' proxy, plain CommonJS).
const { startTcpProxy } = require('../../server/test/helpers/tcp-proxy.js');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Round-robin over the API processes that are up (what a load balancer in front of them does). */
async function balancer(ports, isUp) {
  let next = 0;
  const open = new Set();
  const server = createServer((client) => {
    const live = ports().filter((p, i) => isUp(i));
    if (!live.length) return void client.destroy();
    const port = live[next++ % live.length];
    const upstream = connect(port, '127.0.0.1');
    const close = () => (client.destroy(), upstream.destroy());
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('error', close).on('close', () => (open.delete(s), close()));
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: server.address().port,
    close: () => {
      for (const s of open) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

function ping(port) {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    sock.once('connect', () => sock.write('PING\r\n'));
    sock.once('data', (d) => (sock.destroy(), resolve(d.toString().startsWith('+PONG'))));
    sock.once('error', () => (sock.destroy(), resolve(false)));
  });
}

/** The run's own redis-server: FLUSHALL and restarts touch no one else. */
async function privateRedis(children) {
  const port = await freePort();
  let proc;
  const start = async () => {
    proc = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    children.add(proc);
    proc.once('exit', () => children.delete(proc));
    for (let i = 0; i < 100 && !(await ping(port)); i++) await sleep(50);
  };
  const stop = async () => {
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const p = proc;
    await new Promise((r) => (p.once('exit', () => r()), p.kill('SIGKILL')));
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    restart: async () => (await stop(), await start()),
    stop,
  };
}

/** Every process's environment: its database, Redis, the proxies, the simulator, short intervals. */
function serverEnv({ tag, mysqlProxy, redis, amqpProxy, sim, lb }, env) {
  return {
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    MYSQL_URL: `mysql://root@127.0.0.1:${mysqlProxy.port}/showtix_${tag}`,
    MYSQL_POOL_SIZE: '8',
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: `${tag}:`,
    AMQP_URL: `amqp://guest:guest@127.0.0.1:${amqpProxy.port}`,
    AMQP_PREFIX: tag,
    AUTH_SECRET: 'chaos-only-secret-0123456789abcdef0123456789',
    ID_SECRET: 'chaos-only-id-secret-0123456789abcdef012345',
    TICKET_KEY_SECRET: 'chaos-only-ticket-key-secret-0123456789abcdef',
    ADMIN_PASSWORD: 'chaos-only-admin-password',
    WECHAT_API_BASE: sim.url,
    WECHAT_PAY_API_BASE: sim.url,
    WECHAT_CASHIER_URL: `${sim.url}/sim/cashier`,
    PUBLIC_BASE_URL: `http://127.0.0.1:${lb.port}`,
    SERVE_H5: 'false',
    // One address plays every buyer: the per-address limits are a flood guard, not the subject.
    RATE_PURCHASE_IP: '0/1',
    RATE_QUEUE_IP: '0/1',
    RATE_POLL_IP: '0/1',
    RATE_PAY_IP: '0/1',
    RATE_LOGIN_IP: '0/1',
    ACCOUNTS_PER_IP_MAX: '100000000',
    // Short recovery intervals for the run (all configurable): the heal window stays short.
    PAY_CHECK_AFTER_MS: '4000',
    ORPHAN_GRACE_MS: '8000',
    HOLD_GRACE_MS: '3000',
    CONSUMER_BACKOFF_MS: '200',
    LEADER_LEASE_MS: '3000',
    SHUTDOWN_DRAIN_MS: '2000',
    ...env,
  };
}

/** The harness's own connections (audit, seeding): straight to MySQL, never through the proxy. */
async function harnessDeps(base, tag) {
  const { loadConfig } = dist('config/index.js');
  const { migrateUp } = dist('db/migrate.js');
  const { createDeps, closeDeps } = dist('wiring.js');
  const config = loadConfig({
    ...process.env,
    ...base,
    // The harness (its checks, and the cleanup at close) reaches MySQL and RabbitMQ directly: the
    // faults cut the servers' proxies, which close() stops before it cleans up.
    MYSQL_URL: `mysql://root@127.0.0.1:3306/showtix_${tag}`,
    AMQP_URL: `amqp://guest:guest@127.0.0.1:${AMQP_PORT}`,
    JOBS_ENABLED: 'false',
    LOG_LEVEL: 'error',
  });
  await migrateUp(config.mysqlUrl);
  const deps = await createDeps(config);
  return { config, deps, closeDeps };
}

/**
 * A supervisor, as an orchestrator is: a process that exits (killed, or failed to start while
 * MySQL was cut) is started again after p.restartMs. `up`: an API answers /healthz.
 */
function supervisor({ children, logDir, base, isClosed }) {
  const spawnProc = (p) => {
    const out = createWriteStream(path.join(logDir, `${p.name}.log`), { flags: 'a' });
    const env = { ...process.env, ...base, ROLE: p.role, PORT: String(p.port ?? 0) };
    const child = spawn('node', [...serverNodeFlags(), path.join(root, 'server/dist/main.js')], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(out);
    child.stderr.pipe(out);
    children.add(child);
    p.child = child;
    p.up = false;
    p.starts = (p.starts ?? 0) + 1;
    child.once('exit', () => {
      children.delete(child);
      p.up = false;
      if (!isClosed()) setTimeout(() => !isClosed() && spawnProc(p), p.restartMs ?? 1000);
    });
    if (p.role === 'api')
      void answersWithin(`http://127.0.0.1:${p.port}/healthz`, 120_000, 200).then((ok) => {
        if (p.child === child && child.exitCode === null) p.up = ok;
      });
    else p.up = true;
  };
  return spawnProc;
}

/** kill -9 of every child process (keepRedis: not the stack's redis-server). */
function killer(children) {
  return (o = {}) => {
    for (const c of children) {
      if (o.keepRedis && c.spawnargs[0] === 'redis-server') continue;
      try {
        c.kill('SIGKILL');
      } catch {
        /* gone */
      }
    }
  };
}

/** The machine's RabbitMQ, which the stack reaches through a proxy (faults cut it). */
const AMQP_PORT = 5672;

/** The stack's pieces besides the server processes: Redis, proxies, simulator, balancer. */
async function openServices(o, children, procs) {
  const redis = await privateRedis(children);
  const mysqlProxy = await startTcpProxy({ host: '127.0.0.1', port: 3306 });
  const amqpProxy = await startTcpProxy({ host: '127.0.0.1', port: AMQP_PORT });
  const { startSimulator } = require(`${root}/wechat-sim/dist/index.js`);
  const sim = await startSimulator({ notifyRetryScale: o.notifyRetryScale ?? 0.02, refundDelayMs: 300 });
  const apiPorts = await Promise.all(Array.from({ length: o.apis }, () => freePort()));
  const lb = await balancer(
    () => apiPorts,
    (i) => procs[i]?.up,
  );
  return { redis, mysqlProxy, amqpProxy, sim, apiPorts, lb };
}

/**
 * Opens the stack. `o`: {seed, apis, notifyRetryScale}. Returns handles for the faults, the
 * buyers and the audit; close() stops every child process and removes database, keys and queues.
 */
export async function openStack(o) {
  const children = new Set();
  const logDir = mkdtempSync(path.join(os.tmpdir(), `chaos-${o.seed}-`));
  const tag = `chaos${process.pid}`;
  const procs = []; // [{name, role, port?, child, up}]
  const svc = await openServices(o, children, procs);
  const { redis, mysqlProxy, amqpProxy, sim, apiPorts, lb } = svc;
  const base = serverEnv({ tag, ...svc }, o.env);
  const { config, deps, closeDeps } = await harnessDeps(base, tag);

  let closed = false;
  const spawnProc = supervisor({ children, logDir, base, isClosed: () => closed });
  /** Until every process runs (an API answers /healthz). */
  const allUp = async (ms = 180_000) => {
    const end = Date.now() + ms;
    while (!procs.every((p) => p.up && p.child.exitCode === null)) {
      if (Date.now() > end) throw new Error(`processes did not come up (logs: ${logDir})`);
      await sleep(200);
    }
  };
  for (let i = 0; i < o.apis; i++) procs.push({ name: `api${i + 1}`, role: 'api', port: apiPorts[i] });
  procs.push({ name: 'worker', role: 'worker' });
  for (const p of procs) spawnProc(p);
  await allUp();

  const killAll = killer(children);
  const url = `http://127.0.0.1:${lb.port}`;
  return {
    ...{ sim, deps, config, tag, logDir, procs, url, redis, mysqlProxy, amqpProxy, killAll, allUp },
    /** kill -9; the supervisor starts it again after restartMs. */
    async kill9(p, restartMs) {
      const c = p.child;
      p.up = false;
      p.restartMs = restartMs;
      if (c.exitCode === null && c.signalCode === null)
        await new Promise((r) => (c.once('exit', () => r()), c.kill('SIGKILL')));
    },
    /** keepLogs: leave the processes' logs for a failed run to be read. */
    async close({ keepLogs = true } = {}) {
      if (closed) return;
      closed = true;
      killAll({ keepRedis: true }); // the harness's own clients close first
      await sleep(200);
      await closeDeps(deps).catch(() => {});
      await sim.close().catch(() => {});
      await lb.close();
      await mysqlProxy.close();
      await amqpProxy.close();
      await redis.stop();
      await cleanup(config, { redisKeys: false }); // its Redis is gone with the stack
      if (!keepLogs) rmSync(logDir, { recursive: true, force: true });
    },
  };
}
