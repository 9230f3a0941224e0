// npm run cluster [-- --apis 3 --workers 2 --no-build --no-seed]: the whole distributed topology
// on one machine, each piece its own process on free ports in a directory of its own:
//   Redis Cluster (3 masters + 3 replicas, scripts/redis-cluster.mjs),
//   MariaDB primary + GTID replica (scripts/mariadb-replica.mjs),
//   N API processes (ROLE=api) behind nginx (deploy/nginx/showtix-cluster.conf.template as it is),
//   M workers (ROLE=worker), the WeChat simulator; RabbitMQ is the machine's (own queue prefix).
// Prints where everything is; Ctrl-C stops it all by PID and removes the directory.
// The cluster bench (bench/cluster/run.mjs) imports startTopology. Node built-ins only.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverNodeFlags } from './lib.mjs';
import { startRedisCluster, stopRedisCluster } from './redis-cluster.mjs';
import { startReplicaPair, stopReplicaPair } from './mariadb-replica.mjs';
import { startPrometheus } from './prometheus.mjs';
import { answersWithin } from './lib/answering.js';
import { freePort } from './lib/free-port.js';
import { clusterSite, layOut } from './lib/nginx.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function listening(port) {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/** Whether an API process turns ready (its dependencies answer, its warm-up is over) in 2 minutes. */
const ready = (url) => answersWithin(`${url}/readyz`, 120_000, 200);

/** nginx in the foreground as our child, from the cluster template, with its own prefix. */
async function startNginx(dir, apiPorts) {
  const port = await freePort();
  const prefix = path.join(dir, 'nginx');
  const upstreams = apiPorts.map((p) => `127.0.0.1:${p}`);
  const args = layOut(prefix, clusterSite(port, upstreams), 4096);
  const test = spawnSync('/usr/sbin/nginx', [...args, '-t'], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t: ${test.stderr}`);
  const child = spawn('/usr/sbin/nginx', [...args, '-g', 'daemon off;'], { stdio: 'ignore' });
  for (let i = 0; !(await listening(port)); i++) {
    if (child.exitCode !== null || i > 200) throw new Error(`nginx did not start (${prefix}/logs/error.log)`);
    await sleep(50);
  }
  return { port, url: `http://127.0.0.1:${port}`, child, prefix };
}

/** Stops every process the topology started, then its queues, Redis, MariaDB and directory. */
function stopper(t, o) {
  const { children } = t;
  const alive = (c) => c.exitCode === null && c.signalCode === null;
  return async () => {
    for (const c of children) if (alive(c)) c.kill('SIGTERM');
    const end = Date.now() + 15_000;
    while ([...children].some(alive) && Date.now() < end) await sleep(100);
    for (const c of children) if (alive(c)) c.kill('SIGKILL');
    if (t.env) await dropQueues(t.env.AMQP_PREFIX);
    if (t.redis) await stopRedisCluster(t.redis.dir);
    if (t.mariadb) await stopReplicaPair(t.mariadb.dir);
    if (!o.keepDir) rmSync(t.dir, { recursive: true, force: true });
  };
}

/** The WeChat simulator on a free port. */
async function startSim(t) {
  const simPort = await freePort();
  const sim = spawn(process.execPath, [path.join(root, 'wechat-sim/dist/main.js')], {
    env: { ...process.env, SIM_PORT: String(simPort) },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  t.children.add(sim);
  t.sim = { url: `http://127.0.0.1:${simPort}`, child: sim, port: simPort };
}

/** Every server process's environment: the cluster's stores, the simulator, nginx as public URL. */
function serverEnv(t, o) {
  const db = o.database ?? 'showtix';
  return {
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    MYSQL_URL: `${t.mariadb.primary}/${db}`,
    MYSQL_REPLICA_URL: `${t.mariadb.replica}/${db}`,
    REDIS_CLUSTER_NODES: t.redis.nodes.join(','),
    AMQP_PREFIX: o.amqpPrefix ?? 'showtix_cluster',
    WECHAT_API_BASE: t.sim.url,
    WECHAT_PAY_API_BASE: t.sim.url,
    WECHAT_CASHIER_URL: `${t.sim.url}/sim/cashier`,
    PUBLIC_BASE_URL: t.url,
    TRUST_PROXY_HOPS: '1',
    SERVE_H5: 'false',
    ...o.env,
  };
}

function migrateAndSeed(t, o) {
  const migrate = spawnSync(process.execPath, [path.join(root, 'server/dist/db/migrate-cli.js')], {
    env: { ...process.env, ...t.env },
    encoding: 'utf8',
  });
  if (migrate.status !== 0) throw new Error(`migrations: ${migrate.stderr}`);
  if (o.seed)
    spawnSync(process.execPath, [path.join(root, 'server/dist/seed/cli.js')], {
      env: { ...process.env, ...t.env },
      stdio: 'ignore',
    });
}

/** Starts one server process (api or worker) with its log in logs/<name>.log. */
function spawnProc(t, p) {
  const out = createWriteStream(path.join(t.logs, `${p.name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, [...serverNodeFlags(), path.join(root, 'server/dist/main.js')], {
    env: {
      ...process.env,
      ...t.env,
      ROLE: p.role,
      PORT: String(p.port ?? 0),
      // A worker serves /metrics only on a port of its own (Prometheus scrapes every process).
      ...(p.metricsPort ? { METRICS_PORT: String(p.metricsPort) } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  t.children.add(child);
  child.once('exit', () => t.children.delete(child));
  p.child = child;
  return p;
}

/** The API processes on their ports and the workers; resolves once every API process is ready. */
async function startProcs(t, apis, workers, apiPorts) {
  for (let i = 0; i < apis; i++)
    t.procs.push(
      spawnProc(t, {
        name: `api${i + 1}`,
        role: 'api',
        port: apiPorts[i],
        url: `http://127.0.0.1:${apiPorts[i]}`,
      }),
    );
  for (let i = 0; i < workers; i++)
    t.procs.push(spawnProc(t, { name: `worker${i + 1}`, role: 'worker', metricsPort: await freePort() }));
  const results = await Promise.all(t.procs.filter((p) => p.role === 'api').map((p) => ready(p.url)));
  if (!results.every(Boolean)) throw new Error(`an API process did not become ready (logs: ${t.logs})`);
  t.apis = t.procs.filter((p) => p.role === 'api');
  /** kill -9 of one API process (nginx notices by itself). */
  t.killApi = (p) =>
    new Promise((r) => {
      if (p.child.exitCode !== null || p.child.signalCode !== null) return r();
      p.child.once('exit', () => r());
      p.child.kill('SIGKILL');
    });
  /** Starts a killed API process again on its port; resolves once it is ready. */
  t.startApi = async (p) => (spawnProc(t, p), ready(p.url));
}

/**
 * Starts the topology. o: {apis, workers, dir, env (extra server env), amqpPrefix, seed}.
 * Returns where everything is and handles for faults: killApi (kill -9), startApi, stop().
 */
export async function startTopology(o = {}) {
  const apis = o.apis ?? 3;
  const workers = o.workers ?? 1;
  const dir = o.dir ?? mkdtempSync(path.join(tmpdir(), 'showtix-cluster-'));
  chmodSync(dir, 0o755); // nginx's prefix is inside: its workers (nobody) must get through
  const logs = path.join(dir, 'logs');
  mkdirSync(logs, { recursive: true });
  const children = new Set();
  const t = { dir, logs, procs: [], children };
  const stopAll = stopper(t, o);
  t.stop = stopAll;
  try {
    mkdirSync(path.join(dir, 'redis'), { recursive: true });
    [t.redis, t.mariadb] = await Promise.all([
      startRedisCluster(path.join(dir, 'redis')),
      startReplicaPair(path.join(dir, 'mariadb')),
    ]);
    await startSim(t);
    const apiPorts = await Promise.all(Array.from({ length: apis }, () => freePort()));
    // nginx first: PUBLIC_BASE_URL (where WeChat sends notifications) is nginx.
    t.nginx = await startNginx(dir, apiPorts);
    children.add(t.nginx.child);
    t.url = t.nginx.url;
    t.env = serverEnv(t, o);
    await waitPort(t.sim.port);
    migrateAndSeed(t, o);
    await startProcs(t, apis, workers, apiPorts);
    return t;
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/**
 * The topology's RabbitMQ queues and exchange on the machine's shared broker: its database goes
 * with its directory, so what the queues hold means nothing after a stop.
 */
async function dropQueues(prefix) {
  try {
    const { QUEUES } = await import(path.join(root, 'server/dist/workers.js'));
    const { default: amqp } = await import('amqplib');
    const conn = await amqp.connect(process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672');
    const ch = await conn.createChannel();
    for (const name of Object.keys(QUEUES))
      for (const q of ['', '.retry', '.dead']) await ch.deleteQueue(`${prefix}.${name}${q}`);
    await ch.deleteExchange(`${prefix}.events`);
    await conn.close();
  } catch {
    /* RabbitMQ down or nothing declared */
  }
}

async function waitPort(port, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await listening(port))) {
    if (Date.now() > end) throw new Error(`nothing listens on ${port}`);
    await sleep(100);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  const num = (name, def) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? Number(argv[i + 1]) : def;
  };
  if (!argv.includes('--no-build')) {
    const { ensureInstall, run } = await import('./lib.mjs');
    ensureInstall();
    run('npm run build -w shared-types -w wechat-sim -w server');
  }
  console.log(
    'starting: Redis Cluster, MariaDB primary + replica, simulator, nginx, API and worker processes ...',
  );
  const t0 = Date.now();
  const t = await startTopology({
    apis: num('apis', 3),
    workers: num('workers', 1),
    seed: !argv.includes('--no-seed'),
  });
  // Prometheus scraping every API and worker process (deploy/prometheus, scripts/prometheus.mjs).
  const prom = await startPrometheus({
    api: t.apis.map((p) => `127.0.0.1:${p.port}`),
    workers: t.procs.filter((p) => p.role === 'worker').map((p) => `127.0.0.1:${p.metricsPort}`),
    dir: path.join(t.dir, 'prometheus'),
  }).catch((err) => (console.log(`Prometheus not started: ${err.message.split('\n')[0]}`), undefined));
  const rows = [
    ['API through nginx', `${t.url}/api/v1/shows   (admin: ${t.url}/admin/)`],
    ...t.apis.map((p) => [`${p.name} (ROLE=api, pid ${p.child.pid})`, p.url]),
    ...t.procs
      .filter((p) => p.role === 'worker')
      .map((p) => [`${p.name} (ROLE=worker)`, `pid ${p.child.pid}`]),
    ['Redis Cluster', `REDIS_CLUSTER_NODES=${t.redis.nodes.join(',')}`],
    [
      'MariaDB primary',
      `${t.env.MYSQL_URL}   (mariadb --no-defaults -h127.0.0.1 -P${t.mariadb.primaryPort} -uroot)`,
    ],
    ['MariaDB replica', `${t.env.MYSQL_REPLICA_URL}   (-P${t.mariadb.replicaPort})`],
    ['RabbitMQ', `the machine's, AMQP_PREFIX=${t.env.AMQP_PREFIX}`],
    ['WeChat simulator', `${t.sim.url}/sim/state`],
    ['Prometheus (every process)', prom ? `${prom.url}/targets` : 'not running'],
    ['logs', t.logs],
  ];
  console.log(`\n  showtix cluster is up (${((Date.now() - t0) / 1000).toFixed(1)} s):`);
  for (const [k, v] of rows) console.log(`    ${k.padEnd(34)} ${v}`);
  console.log('  Ctrl-C stops everything.\n');
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('stopping ...');
    await prom?.stop();
    await t.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}
