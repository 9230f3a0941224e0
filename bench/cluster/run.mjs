// The flash sale on the distributed topology (npm run bench -- --topology cluster): buyers over
// real HTTP through nginx to N API processes (ROLE=api) and a worker, on a Redis Cluster
// (3 masters + 3 replicas) and a MariaDB primary + replica, all started by scripts/cluster.mjs.
// While it sells: kill -9 of one API process (started again 2 s later), kill -9 of the Redis
// master that serves the hot session (its replica takes over), and a restart of the MariaDB
// replica. Before that, the same sale on ONE API process (no nginx, no faults) gives
// single_process_rps in the same run. Last line: one JSON object.
// Usage: node bench/cluster/run.mjs [--apis 3 --buyers 3000 --seats 600 --connections 64 --smoke --keep]
// (small by default: it finishes in a few minutes on a shared 2-core machine).
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { closedLoop, purchaseRequest } from '../closed-loop.mjs';
import { parseArgs, percentile, report, rng, root, runMain } from '../lib.mjs';
import { seedTour, seedUsers } from '../flash-sale/seed.mjs';
import { audit } from '../flash-sale/audit.mjs';
import { startTopology } from '../../scripts/cluster.mjs';
import { masterOfSlot, nodePid, startNode, clusterState } from '../../scripts/redis-cluster.mjs';
import { restartReplica } from '../../scripts/mariadb-replica.mjs';

const require = createRequire(import.meta.url);
const dist = (p) => require(`${root}/server/dist/${p}`);
const args = parseArgs(process.argv.slice(2));
const smoke = args.smoke === true;
const APIS = Number(args.apis ?? 3);
const BUYERS = Number(args.buyers ?? (smoke ? 1000 : 3000));
/** Seats per session (a multiple of 200) and as many zone units; two sessions per sale. */
const SEATS = Number(args.seats ?? (smoke ? 200 : 600));
const CONNECTIONS = Number(args.connections ?? 64);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function bodiesFor(tour, n, seed) {
  const rnd = rng(seed);
  return Array.from({ length: n }, () => {
    const s = tour[rnd() < 0.6 ? 0 : 1];
    const qty = 1 + Math.floor(rnd() * 4);
    if (rnd() < 0.75) {
      const span = Math.floor(s.seatIds.length / 2);
      const start = Math.floor(rnd() * (span - qty));
      return JSON.stringify({ sessionId: s.id, seatIds: s.seatIds.slice(start, start + qty) });
    }
    return JSON.stringify({ sessionId: s.id, zoneId: s.zoneId, quantity: qty });
  });
}

/**
 * One sale: every buyer once, over CONNECTIONS, in the benches' closed loop; samples [sentMs,
 * endMs, status, orderNo, code]; `errors` the requests that got no answer (a connection lost or
 * no answer within 30 s).
 */
async function sell(url, tokens, bodies, keyTag, t0) {
  const samples = [];
  let errors = 0;
  await closedLoop({
    url,
    connections: CONNECTIONS,
    next: (i) =>
      i < bodies.length
        ? { ...purchaseRequest(tokens[i], `${keyTag}-${i}`, bodies[i]), readBody: true }
        : undefined,
    onAnswer: (status, sentAt, now, body) => {
      const { orderNo, code } = answerOf(status, body);
      samples.push([sentAt - t0, now - t0, status, orderNo, code]);
    },
    onError: () => errors++,
  });
  return { samples, errors };
}

/** A 201's order number, a 5xx's error code (or 'no JSON body': nginx's own page). */
function answerOf(status, body) {
  if (status !== 201 && status < 500) return {};
  const none = status >= 500 ? 'no JSON body' : undefined;
  try {
    const json = JSON.parse(body);
    // A 201 without an order number is counted as lost below.
    return { orderNo: json.orderNo, code: json.code ?? json.error?.code ?? none };
  } catch {
    return { code: none };
  }
}

/**
 * The errors by status and code: the server's code (503 OVERLOADED is a deliberate early refusal
 * with Retry-After, 503 SERVICE_UNAVAILABLE a store that did not answer) or nginx's own page.
 */
function byCode(samples) {
  const out = {};
  for (const s of samples.filter((x) => x[2] >= 500))
    out[`${s[2]} ${s[4]}`] = (out[`${s[2]} ${s[4]}`] ?? 0) + 1;
  return out;
}

/** How many of the acknowledged order numbers the primary has. */
async function countInMysql(deps, orderNos) {
  let found = 0;
  for (let i = 0; i < orderNos.length; i += 1000) {
    const chunk = orderNos.slice(i, i + 1000).filter(Boolean);
    if (!chunk.length) continue;
    const [rows] = await deps.db.query('SELECT COUNT(*) n FROM orders WHERE order_no IN (?)', [chunk]);
    found += Number(rows[0].n);
  }
  return found;
}

/** Requests per second over the selling window (up to the last 201). */
function rate(samples) {
  const ok = samples.filter((s) => s[2] === 201);
  const start = Math.min(...samples.map((s) => s[0]));
  const last = ok.reduce((m, s) => Math.max(m, s[1]), 0);
  const inWindow = samples.filter((s) => s[1] <= last).length;
  return { rps: inWindow / ((last - start) / 1000), windowS: (last - start) / 1000, created: ok.length };
}

/**
 * The faults on a timer, from t0: kill -9 of an API process (back 2 s later), kill -9 of the
 * Redis master of the hot slot (until its replica is promoted), a MariaDB replica restart.
 * Resolves to the Redis kill's time since t0 (ms).
 */
async function faultSchedule(topo, slot, faults, t0) {
  const at = () => (performance.now() - t0) / 1000;
  const redisDir = topo.redis.dir;
  await sleep(1500);
  const victim = topo.apis[1];
  faults.push({ fault: 'kill -9 API process', name: victim.name, at_s: at() });
  await topo.killApi(victim);
  setTimeout(
    () => void topo.startApi(victim).then(() => faults.push({ fault: 'API process back', at_s: at() })),
    2000,
  );
  await sleep(1500);
  const port = masterOfSlot(topo.redis.ports[0], slot) ?? masterOfSlot(topo.redis.ports[3], slot);
  faults.push({ fault: 'kill -9 Redis master of the hot session', port, at_s: at() });
  process.kill(nodePid(redisDir, port), 'SIGKILL');
  const killedAt = performance.now();
  const other = topo.redis.ports.find((p) => p !== port);
  while (clusterState(other) !== 'ok' || masterOfSlot(other, slot) === port) await sleep(100);
  faults.push({
    fault: 'Redis replica promoted, cluster_state ok',
    at_s: at(),
    took_s: (performance.now() - killedAt) / 1000,
  });
  startNode(redisDir, port); // rejoins as a replica of the promoted one
  await sleep(1000);
  faults.push({ fault: 'restart MariaDB replica', at_s: at() });
  await restartReplica(topo.mariadb.dir);
  faults.push({ fault: 'MariaDB replica back', at_s: at() });
  return killedAt - t0;
}

/** Fans refreshing the show list (replica reads) during the sale, through nginx. */
async function showListReaders(url, isDone) {
  let failed = 0;
  let n = 0;
  const end = Date.now() + 60_000;
  while (!isDone() && Date.now() < end) {
    const r = await fetch(`${url}/api/v1/shows`).catch(() => undefined);
    n++;
    if (!r?.ok) failed++;
    await sleep(50);
  }
  return { n, failed };
}

/** 1. The same sale on one API process, straight (no nginx), no faults. */
async function sellSingle(topo, tokens, single) {
  const api1 = topo.apis[0];
  await autocannon({ url: `${api1.url}/api/v1/shows`, connections: 10, duration: 1 }); // warm-up
  const s1 = await sell(
    api1.url,
    tokens.slice(0, BUYERS),
    bodiesFor(single, BUYERS, 1),
    'single',
    performance.now(),
  );
  const singleRate = rate(s1.samples);
  console.log(
    `one process: ${Math.round(singleRate.rps)} purchase req/s over ${singleRate.windowS.toFixed(1)} s`,
  );
  return singleRate;
}

/** 2. Through nginx to every API process, with the faults on a timer. */
async function sellCluster(topo, deps, tokens, tour, faults) {
  const t0 = performance.now();
  const hot = deps.keys.session(tour[0].id).meta;
  const slot = Number(await deps.redis.call('CLUSTER', 'KEYSLOT', hot));
  const schedule = faultSchedule(topo, slot, faults, t0);
  let done = false;
  const readers = showListReaders(topo.url, () => done);
  const s2 = await sell(topo.url, tokens.slice(BUYERS), bodiesFor(tour, BUYERS, 2), 'cluster', t0);
  done = true;
  const redisKillMs = await schedule;
  const reads = await readers;
  return { s2, redisKillMs, reads };
}

/** How the cluster sale went during the failover: recovery, errors, statuses. */
function failoverStats(s2, redisKillMs, faults) {
  // Recovery: from the Redis master's kill until a purchase sent after the kill is acknowledged
  // (the whole Cluster refuses commands until the replica is promoted; clients wait it out).
  const recoveredAt = s2.samples
    .filter((s) => s[2] === 201 && s[0] >= redisKillMs)
    .reduce((m, s) => Math.min(m, s[1]), Infinity);
  const failoverStart = (faults[0]?.at_s ?? 0) * 1000;
  const during = s2.samples.filter((s) => s[1] >= failoverStart);
  const errorsDuringFailover = during.filter((s) => s[2] >= 500).length + s2.errors; // the requests that got no answer
  const statuses = {};
  for (const s of s2.samples) statuses[s[2]] = (statuses[s[2]] ?? 0) + 1;
  const recovery = Number.isFinite(recoveredAt)
    ? Number(((recoveredAt - redisKillMs) / 1000).toFixed(2))
    : null;
  return { errorsDuringFailover, errorsByCode: byCode(during), statuses, recovery };
}

/** The record: every acknowledged order is in MySQL (the primary), nothing sold twice. */
async function record(deps, { tour, single }, run, singleRate, faults) {
  const { s2, redisKillMs, reads } = run;
  const f = failoverStats(s2, redisKillMs, faults);
  const clusterRate = rate(s2.samples);
  await sleep(2000);
  const acked = s2.samples.filter((s) => s[2] === 201).map((s) => s[3]);
  const found = await countInMysql(deps, acked);
  const a = await audit(deps, tour);
  const a1 = await audit(deps, single);
  const cap = (t) => t.reduce((n, s) => n + s.capacity, 0);
  const lat = s2.samples.map((s) => s[1] - s[0]).sort((x, y) => x - y);
  return {
    scenario: 'flash-sale-cluster',
    apis: APIS,
    buyers: BUYERS,
    connections: CONNECTIONS,
    capacity: cap(tour),
    sold: a.sold,
    oversold:
      Math.max(0, a.sold - cap(tour)) +
      a.oversoldSessions +
      Math.max(0, a1.sold - cap(single)) +
      a1.oversoldSessions,
    double_sold: a.doubleSold + a1.doubleSold,
    created_201: acked.length,
    lost_acknowledged: acked.length - found,
    errors_during_failover: f.errorsDuringFailover,
    errors_by_code: f.errorsByCode,
    socket_errors: s2.errors,
    failover_recovery_s: f.recovery,
    purchase_rps: Math.round(clusterRate.rps),
    single_process_rps: Math.round(singleRate.rps),
    selling_window_s: Number(clusterRate.windowS.toFixed(2)),
    p50_ms: Number(percentile(lat, 50).toFixed(1)),
    p99_ms: Number(percentile(lat, 99).toFixed(1)),
    show_list_reads: reads.n,
    show_list_failed: reads.failed,
    redis_mysql_diff: a.redisDiff + a1.redisDiff,
    statuses: f.statuses,
    faults,
    load_avg: (await import('node:os')).loadavg().map((l) => Number(l.toFixed(2))),
    // scripts/cluster.mjs starts every process on this bench's own Node, whatever BENCH_SERVER_NODE says.
    server_node: process.version,
    at: new Date().toISOString(),
  };
}

async function main() {
  const startedAt = new Date().toISOString();
  console.log(
    `starting the topology: ${APIS} API processes + 1 worker, Redis Cluster, MariaDB primary + replica, nginx ...`,
  );
  const topo = await startTopology({
    apis: APIS,
    workers: 1,
    amqpPrefix: `benchcluster${process.pid}`,
    // --keep: leave the run's directory (nginx's error log, each process's log) for a post-mortem.
    keepDir: args.keep === true,
    env: { RATE_PURCHASE_IP: '0/1', LEADER_LEASE_MS: '3000', MYSQL_POOL_SIZE: '12' },
  });
  const { loadConfig } = dist('config/index.js');
  const { createDeps, closeDeps } = dist('wiring.js');
  const deps = await createDeps(loadConfig({ ...process.env, ...topo.env, JOBS_ENABLED: 'false' }));
  const faults = [];
  try {
    console.log(
      `seeding two sales of 2 sessions x (${SEATS} seats + ${SEATS}-unit zone), ${BUYERS} buyers each`,
    );
    const single = await seedTour(deps, { sessions: 2, seatsPerSession: SEATS, zoneCapacity: SEATS });
    const tour = await seedTour(deps, { sessions: 2, seatsPerSession: SEATS, zoneCapacity: SEATS });
    const tokens = await seedUsers(deps, BUYERS * 2);
    const singleRate = await sellSingle(topo, tokens, single);
    const run = await sellCluster(topo, deps, tokens, tour, faults);
    const result = await record(deps, { tour, single }, run, singleRate, faults);
    console.log(
      `cluster: ${result.purchase_rps} purchase req/s (one process: ${result.single_process_rps}); ` +
        `${result.created_201} orders acknowledged, ${result.lost_acknowledged} lost; oversold ${result.oversold}, ` +
        `double-sold ${result.double_sold}; errors during failover ${result.errors_during_failover}; ` +
        `recovery ${result.failover_recovery_s} s; statuses ${JSON.stringify(result.statuses)}; ` +
        `show list reads through nginx failed: ${result.show_list_failed} of ${result.show_list_reads}`,
    );
    report(result, { save: !smoke, at: startedAt });
    if (result.oversold || result.double_sold || result.lost_acknowledged) process.exitCode = 1;
  } finally {
    await closeDeps(deps).catch(() => undefined);
    await topo.stop(); // processes, Redis Cluster, MariaDB, the run's queues, its directory
    if (args.keep === true) console.log(`kept: ${topo.dir} (nginx/logs/error.log, logs/*.log)`);
  }
}

runMain(main);
