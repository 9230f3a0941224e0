// Overload benchmark (issue 14): finds what saturates the purchase path, then offers twice that
// (open loop: a fixed request rate over many connections, whatever the answers' latency) and
// checks that the server stays fast for what it admits and refuses the rest early. The offer is
// paced (paced.mjs): a crowd's random arrivals, each answer timed from when its request was due.
// sent_peak_tenth_share is the share of the requests sent in each second's busiest tenth (0.1 is
// even; autocannon's per-second quota, --offer quota, sends in bursts).
// Last line: JSON {saturation_rps, offered_rps, sent_peak_tenth_share, cpu_cores (per process),
// admitted, admitted_p99_ms, admitted_p99_ms_after_connect (without each connection's first
// request), server_admitted_p99_le_ms, refused_503, refused_429, refusals_without_retry_after,
// errors_other (timeouts among them), oversold, double_sold, load_avg_1m, ...}, also written to
// bench/results/. Usage: npm run bench -- --scenario overload
//   [--buyers 150000 --saturate-s 6 --overload-s 12 --connections 1000 --smoke]
//   [--offerers N: processes that offer the overload, each 1/N of the connections and the rate
//    (default 1 for the paced offer on the raw client, else 2)]
//   [--offer paced|quota --client raw|undici --seed N: the overload's shape (paced.mjs), the paced
//    offer's client (raw-pool.mjs, or undici's Pool to compare with) and its arrivals' seed]
//   [--pin: the server alone on core 0, the offering processes on core 1]
//   [--offered-rps N: offer this instead of twice the saturation measured in this run, so that two
//    runs on a busy shared machine, whose saturation differs from run to run, offer the same load]
//   [--neighbours N --neighbours-nice K: N busy loops at nice K for the whole run (neighbours.mjs)]
import os from 'node:os';
import autocannon from 'autocannon';
import {
  cpuMeter,
  helloCeiling,
  openBench,
  p99ByStatus,
  parseArgs,
  percentile,
  pidOf,
  report,
  runMain,
} from '../lib.mjs';
import { seedTour, seedUsers } from '../flash-sale/seed.mjs';
import { audit } from '../flash-sale/audit.mjs';
import { offerFromProcesses, phase } from './offer.mjs';
import { CLIENTS } from './paced.mjs';
import { neighbourArgs, startNeighbours } from '../neighbours.mjs';

const args = parseArgs(process.argv.slice(2));
const smoke = args.smoke === true;
const BUYERS = Number(args.buyers ?? (smoke ? 20_000 : 150_000));
const SESSIONS = smoke ? 2 : 10;
const SATURATE_S = Number(args['saturate-s'] ?? (smoke ? 3 : 6));
const OVERLOAD_S = Number(args['overload-s'] ?? (smoke ? 5 : 12));
// Enough connections that the offered rate is reached even while answers are slow.
const CONNECTIONS = Number(args.connections ?? 1000);
// The paced offer's client (paced.mjs CLIENTS): 'raw' (default: bare sockets) or 'undici'.
const CLIENT = args.client ?? 'raw';
if (!CLIENTS.includes(CLIENT)) throw new Error(`--client ${CLIENTS.join('|')}, not ${CLIENT}`);
// Processes the overload is offered from. autocannon's quota offer and undici's Pool in one
// process timed answers late by its own loop's delay (offer.mjs), so they are shared by two. The
// raw client needs less of a core in one process (7,000 purchases/s, pinned: 0.29 of a core and
// sent 9 ms late at p99 in one process, 0.42 and 39 ms in two; 2026-12-05).
const OFFERERS = Number(args.offerers ?? (args.offer !== 'quota' && CLIENT === 'raw' ? 1 : 2));
// The overload's shape: 'paced' (default; paced.mjs: each connection's requests at a crowd's random
// times, timed from when each was due) or 'quota' (autocannon's overallRate: each connection's
// quota renewed every second, all in step, sent as fast as answered).
const OFFER = args.offer ?? 'paced';
if (!['paced', 'quota'].includes(OFFER)) throw new Error(`--offer paced|quota, not ${OFFER}`);
// The paced offer's arrivals come from this seed (printed, and in the JSON: a run can be repeated).
const SEED = Number(args.seed ?? Math.floor(Math.random() * 2 ** 31));
// --pin: the server (and the hello-world) alone on core 0, the offering processes on core 1
// (MariaDB, Redis and this process stay where the system puts them): the server's own latency
// without a neighbour taking its core.
const PIN = args.pin === true;
const pin = PIN ? { pinCore: 0 } : {};
const NEIGHBOURS = neighbourArgs(args);

/**
 * The server's own histogram of admitted purchases (201, 409), cumulative count per bucket bound
 * in seconds (buckets), and its shedding bound (inflightLimit). The histogram is the time from its metrics middleware to the answer, without the time a request
 * waited in the socket or in this process before it was seen.
 */
async function serverMetrics(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const buckets = new Map();
  for (const [, labels, n] of text.matchAll(/^http_request_duration_seconds_bucket\{([^}]*)\} (\d+)/gm)) {
    if (!labels.includes('method="POST"') || !labels.includes('route="/api/v1/orders"')) continue;
    if (!/status="(201|409)"/.test(labels)) continue;
    const le = /le="([^"]+)"/.exec(labels)[1];
    buckets.set(le, (buckets.get(le) ?? 0) + Number(n));
  }
  // The shedder's bound of requests in flight at this moment (adapted to the latency it saw).
  const limit = /^shed_inflight_limit (\d+)/m.exec(text);
  // prom-client's loop delay since the previous scrape (it resets at each), less its 10 ms period.
  const lag = (q) => {
    const m = new RegExp(`^nodejs_eventloop_lag_${q}_seconds ([\\d.e+-]+)`, 'm').exec(text);
    return m ? Number(Math.max(0, Number(m[1]) * 1000 - 10).toFixed(1)) : null;
  };
  return {
    buckets,
    inflightLimit: limit ? Number(limit[1]) : null,
    lagP99Ms: lag('p99'),
    lagMaxMs: lag('max'),
  };
}

/** The bucket bound (ms) under which 99% of the admitted purchases between two readings were answered. */
function serverP99Ms(before, after) {
  const since = (le) => (after.get(le) ?? 0) - (before.get(le) ?? 0);
  const total = since('+Inf');
  const bounds = [...after.keys()].filter((le) => le !== '+Inf').sort((a, b) => Number(a) - Number(b));
  const le = bounds.find((b) => since(b) >= 0.99 * total);
  return le === undefined ? null : Number(le) * 1000;
}

/**
 * How bursty the offer was: the share of the phase's requests sent in its busiest tenth of a
 * second, over all its seconds (each second cut into tenths from the phase's start). 0.1: an even
 * offer; 1: every second's requests sent within one tenth of it.
 */
function peakTenthShare(samples, t0) {
  const tenths = new Array(10).fill(0);
  for (const x of samples) tenths[Math.floor(((x[4] - t0) % 1000) / 100)]++;
  return Number((Math.max(...tenths) / samples.length).toFixed(2));
}

/**
 * How bursty the offer was at a finer grain: requests sent in each 10 ms of the phase, the 99th
 * percentile of those counts over their mean. About 1-2 for an even offer; 1,000 connections that
 * all send at once each second reach tens.
 */
function burst10ms(samples, t0) {
  const bins = new Map();
  for (const x of samples) {
    const b = Math.floor((x[4] - t0) / 10);
    bins.set(b, (bins.get(b) ?? 0) + 1);
  }
  const last = Math.max(...bins.keys());
  const counts = Array.from({ length: last + 1 }, (_, b) => bins.get(b) ?? 0).sort((a, b) => a - b);
  const mean = samples.length / counts.length;
  return Number((percentile(counts, 99) / mean).toFixed(1));
}

/** Cores each process used over `seconds` (1: one core all the time; an event loop runs on one). */
const coresUsed = (cpuUs, seconds) =>
  Object.fromEntries(Object.entries(cpuUs).map(([k, us]) => [k, Number((us / 1e6 / seconds).toFixed(2))]));

function stats(samples) {
  const admitted = samples.filter(([, s]) => s !== 503 && s !== 429);
  const lat = admitted.map(([l]) => l).sort((a, b) => a - b);
  const warm = admitted
    .filter(([, , , first]) => !first)
    .map(([l]) => l)
    .sort((a, b) => a - b);
  const statuses = {};
  for (const [, s] of samples) statuses[s] = (statuses[s] ?? 0) + 1;
  const refused = samples.filter(([, s]) => s === 503 || s === 429);
  return {
    admitted: admitted.length,
    admittedP50: percentile(lat, 50),
    admittedP99: percentile(lat, 99),
    admittedP99Warm: warm.length ? percentile(warm, 99) : null,
    // Paced: from the moment each left instead of when it was due. On the raw client that is its
    // write to a connection, so without any wait for a free one or for this process's timer; on
    // undici, when it was handed to the pool (a wait for a connection included). Null for quota.
    admittedP99FromSend:
      admitted.length && admitted[0][5] !== undefined
        ? percentile(
            admitted.map((x) => x[5]).sort((a, b) => a - b),
            99,
          )
        : null,
    // By status, each connection's first request included (as admittedP99).
    admittedP99ByStatus: p99ByStatus(admitted),
    firstRequests: admitted.length - warm.length,
    // Each connection's first answer, whatever its status: its time includes opening the connection.
    firstAnswers: samples
      .filter(([, , , first]) => first)
      .map(([l]) => l)
      .sort((a, b) => a - b),
    refused503: samples.filter(([, s]) => s === 503).length,
    refused429: samples.filter(([, s]) => s === 429).length,
    noRetryAfter: refused.filter(([, , ra]) => !ra).length,
    other: samples.filter(([, s]) => ![201, 409, 429, 503].includes(s)).length,
    statuses,
  };
}

/**
 * The overload itself: `offered` req/s over CONNECTIONS from OFFERERS processes for OVERLOAD_S, the
 * buyers in reverse order; with the CPU each process used, the server's histogram before and after.
 */
async function overload(url, serverPid, tour, tokens, offered) {
  const load1 = os.loadavg()[0];
  const serverBefore = await serverMetrics(url);
  // From here for autocannon's offer; the paced offer's starts again at its clock's start, once its
  // connections are open, as its seconds do (until 2026-12-06 it included opening them).
  const redisPid = pidOf('redis-server');
  const meterNow = () => cpuMeter({ server: serverPid, redis: redisPid });
  let meter = meterNow();
  const over = await offerFromProcesses({
    url,
    tour,
    tokens: tokens.slice().reverse(),
    o: {
      connections: CONNECTIONS,
      overallRate: offered,
      duration: OVERLOAD_S,
      paced: OFFER === 'paced',
      seed: SEED,
      client: CLIENT,
    },
    tag: 'over',
    processes: OFFERERS,
    pinCore: PIN ? 1 : undefined,
    onStart: () => (meter = meterNow()),
  });
  const cpu = { ...meter(), loadgen: over.cpuUs };
  const load = Math.max(load1, os.loadavg()[0]);
  const serverAfter = await serverMetrics(url);
  const serverP99 = serverP99Ms(serverBefore.buckets, serverAfter.buckets);
  return { over, cpu, s: stats(over.samples), load, serverAfter, serverP99 };
}

/**
 * What any answer costs on this machine at these connections: the Koa hello-world under the
 * same 1,000 connections (closed loop), in this run. The offered load at that cost is the least
 * of the server's core its answers take, refusals included, before any purchase runs.
 */
function helloAtConnections() {
  console.log(`measuring the Koa hello-world at ${CONNECTIONS} connections ...`);
  return helloCeiling({ connections: CONNECTIONS, seconds: smoke ? 2 : 6, ...pin });
}

/**
 * Each connection's first answer (admitted or refused), timed from the moment its request was
 * built, before the connection opened: a crowd connecting at once to a busy instance waits here
 * for the instance to accept it (one connection per listening socket per event-loop turn;
 * LISTEN_SOCKETS, passed on to the server from this environment), and admitted_p99_ms comes
 * from these answers.
 */
const firstAnswers = (sorted) => ({
  // null with the paced offer: its connections open before it (connect_p99_ms, connect_max_ms).
  first_answer_p50_ms: sorted.length ? Number(percentile(sorted, 50).toFixed(1)) : null,
  first_answer_p90_ms: sorted.length ? Number(percentile(sorted, 90).toFixed(1)) : null,
  first_answer_max_ms: sorted.length ? Number(sorted[sorted.length - 1].toFixed(1)) : null,
  listen_sockets: Number(process.env.LISTEN_SOCKETS ?? 1),
});

/** The run in one line. */
function summary(r) {
  return (
    `offered ${r.offered_rps} req/s (saturation ${r.saturation_rps}); admitted ${r.admitted_rps}/s p99 ${r.admitted_p99_ms} ms ` +
    `(after connect: ${r.admitted_p99_ms_after_connect} ms) (server: p99 <= ${r.server_admitted_p99_le_ms} ms); ` +
    `first answers p50/p90/max ${r.first_answer_p50_ms}/${r.first_answer_p90_ms}/${r.first_answer_max_ms} ms on ${r.listen_sockets} listening socket(s); ` +
    `refused ${r.refused_503} x 503, ${r.refused_429} x 429 (${r.refusals_without_retry_after} without Retry-After); ` +
    `other errors ${r.errors_other}; oversold ${r.oversold}; load ${r.load_avg_1m}; ` +
    `hello-world at ${r.connections} connections ${r.hello_cpu_us_at_connections} µs/answer, the offer at that cost ${r.offered_at_hello_cost_cores} of a core`
  );
}

/**
 * Warm-up (JIT, catalogs, inventories): seat maps of every session, then a short purchase burst
 * that is not counted.
 */
async function warmUp(url, tour, tokens) {
  for (const t of tour)
    await autocannon({ url: `${url}/api/v1/sessions/${t.id}/seat-states`, connections: 10, amount: 50 });
  await phase(url, tour, tokens.slice(-5_000), { connections: 20, duration: 2 }, 'warm');
}

/** The run's JSON (its fields are described in docs/benchmarks.md). */
function resultOf({
  saturationRps,
  satStats,
  offered,
  over,
  cpu,
  s,
  load,
  serverAfter,
  serverP99,
  a,
  hello,
  shedding,
  neighbours,
}) {
  const answered = Object.values(s.statuses).reduce((x, y) => x + y, 0);
  return {
    scenario: 'overload',
    buyers: BUYERS,
    connections: CONNECTIONS,
    saturation_rps: saturationRps,
    saturation_p99_ms: Number(satStats.admittedP99.toFixed(1)),
    offered_rps: offered,
    offer: OFFER,
    seed: OFFER === 'paced' ? SEED : null,
    client: OFFER === 'paced' ? CLIENT : null,
    sent_rps: Math.round(over.samples.length / over.seconds),
    sent_peak_tenth_share: peakTenthShare(over.samples, over.startedAt),
    sent_10ms_p99_over_mean: burst10ms(over.samples, over.startedAt),
    cpu_cores: coresUsed(cpu, over.seconds),
    admitted: s.admitted,
    admitted_rps: Math.round(s.admitted / over.seconds),
    admitted_p50_ms: Number(s.admittedP50.toFixed(1)),
    admitted_p99_ms: Number(s.admittedP99.toFixed(1)),
    // The same without each connection's first request (whose time includes opening the
    // connection while 1,000 open at once): what a client already connected waits. Reported
    // beside admitted_p99_ms, never instead of it.
    admitted_p99_ms_after_connect: s.admittedP99Warm === null ? null : Number(s.admittedP99Warm.toFixed(1)),
    admitted_first_requests: s.firstRequests,
    // Paced: the admitted p99 timed from each request's sending instead of from when it was due
    // (reported beside admitted_p99_ms, never instead of it).
    admitted_p99_ms_from_send:
      s.admittedP99FromSend === null ? null : Number(s.admittedP99FromSend.toFixed(1)),
    ...firstAnswers(s.firstAnswers),
    admitted_p99_ms_by_status: s.admittedP99ByStatus,
    // The server's histogram bucket (ms) that holds its p99 of the same requests (null: past 2.5 s).
    server_admitted_p99_le_ms: serverP99,
    inflight_limit_end: serverAfter.inflightLimit,
    // The server's event-loop delay over the overload (ms): what every admitted request waits
    // for at each of its steps (reading, Redis's reply, MySQL's, writing).
    server_loop_lag_p99_ms: serverAfter.lagP99Ms,
    server_loop_lag_max_ms: serverAfter.lagMaxMs,
    // The server's CPU per answer over the overload (admitted and refused together), and the
    // hello-world's at the same connections: an early 503 cannot cost much less than the latter.
    server_cpu_us_per_answer: Math.round(cpu.server / Math.max(1, answered)),
    hello_rps_at_connections: Math.round(hello.rps),
    hello_cpu_us_at_connections: Number(hello.cpuUs.toFixed(1)),
    // offered_rps × hello_cpu_us_at_connections: the share of one core (the server's one event
    // loop) the offered requests would take if each cost only a hello-world answer. An admitted
    // request waits for the loop at each of its steps, so its p99 needs this well below 1.
    offered_at_hello_cost_cores: Number(((offered * hello.cpuUs) / 1e6).toFixed(2)),
    offerers: OFFERERS,
    pinned: PIN,
    // --neighbours: the busy loops that shared the machine ({busy_loops, nice}), or null.
    neighbours: neighbours.recorded,
    // The server's shedding as configured (SHED_*: its bounds of loop delay and requests in flight).
    shedding,
    // The worst offering process's own event-loop delay while it offered the load (ms): an
    // answer that arrived while its loop was busy is timed late by up to this much.
    loadgen_lag_p99_ms: Number(over.lagP99Ms.toFixed(1)),
    loadgen_lag_max_ms: Number(over.lagMaxMs.toFixed(1)),
    // Paced: how late the offering processes sent requests after they were due (p99, ms; the
    // worst process). Counted in every latency above, which runs from when a request was due.
    send_late_p99_ms: over.sendLateP99Ms === null ? null : Number(over.sendLateP99Ms.toFixed(1)),
    // Paced: opening the 1,000 connections, all at once before the offer (a GET /livez each; the
    // worst process's p99 and max, ms). The quota offer opens them with its first requests instead.
    connect_p99_ms: over.connectP99Ms === null ? null : Number(over.connectP99Ms.toFixed(1)),
    connect_max_ms: over.connectMaxMs === null ? null : Number(over.connectMaxMs.toFixed(1)),
    refused_503: s.refused503,
    refused_429: s.refused429,
    refusals_without_retry_after: s.noRetryAfter,
    errors_other: s.other + over.errors,
    // Of errors_other: requests with no answer within autocannon's 10 s (the rest: socket errors).
    timeouts: over.timeouts,
    statuses: s.statuses,
    sold: a.sold,
    oversold: a.oversoldSessions,
    double_sold: a.doubleSold,
    load_avg_1m: Number(load.toFixed(2)),
    cores: os.cpus().length,
    at: new Date().toISOString(),
  };
}

async function main() {
  const startedAt = new Date().toISOString();
  // One address: per-address limits off; per-user limits and shedding as configured (defaults).
  const bench = await openBench('overload', { RATE_PURCHASE_IP: '0/1', RATE_PURCHASE_USER: '100/1' });
  const { deps, url } = bench;
  // Started inside the try: neighbours that fail to start (startNeighbours stops any it started)
  // still leave the bench's database and key prefix cleaned up.
  let neighbours;
  try {
    neighbours = startNeighbours(...NEIGHBOURS);
    console.log(`seeding: ${SESSIONS} sessions x (10,000 seats + 10,000-unit zone), ${BUYERS} buyers`);
    const tour = await seedTour(deps, { sessions: SESSIONS, seatsPerSession: 10_000, zoneCapacity: 10_000 });
    const tokens = await seedUsers(deps, BUYERS);
    const server = await bench.startServer(pin);
    await warmUp(url, tour, tokens);

    console.log(`saturating: 100 connections, closed loop, ${SATURATE_S} s ...`);
    const sat = await phase(url, tour, tokens, { connections: 100, duration: SATURATE_S }, 'sat');
    const satStats = stats(sat.samples);
    const saturationRps = Math.round(satStats.admitted / SATURATE_S);
    const offered = args['offered-rps'] ? Number(args['offered-rps']) : 2 * saturationRps;
    console.log(
      `saturation: ${saturationRps} purchase req/s; offering ${offered} req/s for ${OVERLOAD_S} s (${OFFER}, seed ${SEED}) ...`,
    );
    // The overload's measures (over, cpu, s, load, serverAfter, serverP99).
    const measured = await overload(url, server.child.pid, tour, tokens, offered);
    const a = await audit(deps, tour);
    await server.stop();
    const hello = await helloAtConnections();
    // How the run was set up: the server's shedding bounds, and the machine's busy neighbours.
    const setup = { shedding: bench.config.shedding, neighbours };
    const result = resultOf({ saturationRps, satStats, offered, a, hello, ...setup, ...measured });
    console.log(summary(result));
    report(result, { save: !smoke, at: startedAt });
    if (result.oversold || result.double_sold || result.errors_other || result.refusals_without_retry_after)
      process.exitCode = 1;
  } finally {
    await neighbours?.stop();
    await bench.close();
  }
}

runMain(main);
