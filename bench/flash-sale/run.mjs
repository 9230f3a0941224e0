// Flash-sale benchmark: a tour goes on sale at once and buyers arrive over real HTTP.
// Prints progress, then as its last line one JSON object with the figures; writes it to
// bench/results/. Usage: npm run bench [-- --buyers 200000 --sessions 10 --connections 100 --pin --smoke
// --warm-successes 0 --servers 1 (past 1 with --node 24)]
// --pin puts the server (hello-world and real alike) on core 0; by default the load generator,
// the server, MariaDB and Redis share the machine's cores, as they do in the reference.
import autocannon from 'autocannon';
import {
  cpuMeter,
  helloCeiling,
  idleCpuUsPerMs,
  openBench,
  p99ByStatus,
  percentile,
  postOrders,
  redisScriptCalls,
  report,
  rng,
  runMain,
  scenarioArgs,
  storePids,
} from '../lib.mjs';
import { measureRaw } from '../raw-http/measure.mjs';
import { seedTour, seedUsers } from './seed.mjs';
import { checkServers, openSeatMaps, startServers } from './servers.mjs';
import { audit } from './audit.mjs';
import { phaseFigures, ratioCeilingAtFloor, saleAgainstPhases } from './figures.mjs';

const { args, smoke, num } = scenarioArgs();
const BUYERS = num('buyers', 200_000, 3000);
const SESSIONS = num('sessions', 10, 2);
const SEATS = smoke ? 1000 : 10_000;
const ZONE = smoke ? 1000 : 10_000;
const CONNECTIONS = num('connections', 100);
const HELLO_SECONDS = smoke ? 2 : 8;
// Requests in each of the two CPU phases after the sale (all successes, then all refusals).
const PHASE = Math.min(num('phase', 5000, 1000), SEATS);
const pin = args.pin === true ? { pinCore: 0 } : {};
// --servers N: N API processes on the one port (servers.mjs); the hello-world stays one. The JSON
// records it as `servers`, and the server's CPU figures are the processes' sum.
const SERVERS = num('servers', 1);
checkServers(SERVERS);
/**
 * --warm-successes N: N successful purchases (one seat each, on a session of their own) through
 * the sale's instance just before the sale, so that the success path (the take script, the
 * order's SQL, the 201) has run before the first fan's purchase. 0 (the default) opens the sale
 * on an instance warmed only by its own warm-up, which stops at the route's floor. The JSON
 * records it as warm_successes.
 */
const WARM_SUCCESSES = num('warm-successes', 0);
// seedTour lays seats out in four sections of rows of 50.
if (!(Number.isInteger(WARM_SUCCESSES) && WARM_SUCCESSES >= 0 && WARM_SUCCESSES % 200 === 0))
  throw new Error(
    `--warm-successes: a multiple of 200 (four sections of rows of 50 seats), not ${args['warm-successes']}`,
  );
/** The Koa hello-world ceiling (lib.mjs helloCeiling), as every measurement in this run takes it. */
const ceiling = () =>
  helloCeiling({ connections: CONNECTIONS, seconds: HELLO_SECONDS, client: 'closed-loop', ...pin });

function buyerBodies(tour, n, seed) {
  const rnd = rng(seed);
  const bodies = new Array(n);
  for (let i = 0; i < n; i++) {
    const s = rnd() < 0.5 ? tour[0] : (tour[1 + Math.floor(rnd() * (tour.length - 1))] ?? tour[0]);
    const qty = 1 + Math.floor(rnd() * 4);
    if (rnd() < 0.75) {
      // adjacent seats, mostly in the best third of the house: choices overlap heavily
      const span = rnd() < 0.7 ? Math.floor(s.seatIds.length / 3) : s.seatIds.length;
      const start = Math.floor(rnd() * (span - qty));
      bodies[i] = JSON.stringify({ sessionId: s.id, seatIds: s.seatIds.slice(start, start + qty) });
    } else {
      bodies[i] = JSON.stringify({ sessionId: s.id, zoneId: s.zoneId, quantity: qty });
    }
  }
  return bodies;
}

async function purchaseRun(url, tokens, bodies, keyTag = 'bench-key') {
  const samples = []; // [endMs, latencyMs, status]
  const t0 = performance.now();
  await postOrders({
    url,
    connections: CONNECTIONS,
    tokens,
    bodies,
    keyTag,
    onResponse: (status, sentAt, now) => samples.push([now - t0, now - sentAt, status]),
  });
  return samples;
}

/** Seats the refusal phase asks for, each by many buyers: the hot seats of an on-sale. */
const IDLE_MS = 3000;
const HOT_SEATS = 50;

/**
 * Server CPU per request of a success and of a refusal, in phases on a session of their own
 * after the sale: PHASE buyers each buy a seat nobody else asks for (all 201), then PHASE other
 * buyers ask for HOT_SEATS of those seats, PHASE / HOT_SEATS each (all 409): the refusal a flash
 * sale is mostly made of. Every request carries an idempotency key, as in the sale. Then the
 * route's floor: the refusal phase's requests again, each with a malformed idempotency key ('!'
 * is not allowed in one), answered 400 by the route once the request is authenticated, its body
 * parsed and checked, before the order service runs: what the HTTP stack alone costs a purchase
 * request, so that refusal - floor is what refusing costs. The server's CPU while idle (its jobs)
 * is measured first and taken out of each phase.
 */
async function cpuPhases(url, servers, probe, tokens) {
  const seats = probe.seatIds.slice(0, PHASE);
  const body = (id) => JSON.stringify({ sessionId: probe.id, seatIds: [id] });
  // The server's own jobs (expiry, outbox relay, lifecycle) burn CPU with no request at all; on
  // a busy machine a phase is slow, so their share is taken out: CPU while idle, per second.
  const idleUsPerMs = await idleCpuUsPerMs(servers.pids, IDLE_MS);
  const phase = async (toks, bodies, keyTag = 'bench-key') => {
    const meter = servers.meter();
    const t0 = performance.now();
    const samples = await purchaseRun(url, toks, bodies, keyTag);
    const busy = meter().server - idleUsPerMs * (performance.now() - t0);
    const statuses = {};
    for (const s of samples) statuses[s[2]] = (statuses[s[2]] ?? 0) + 1;
    return { cpuUs: Math.round(Math.max(0, busy) / samples.length), statuses };
  };
  const success = await phase(tokens.slice(0, PHASE), seats.map(body));
  // Refusal and floor differ by less than this machine's run-to-run noise: each is run twice,
  // alternated (fresh idempotency keys each time), and their CPU averaged. Each run has buyers
  // of its own, whose tokens the server has not checked yet, as every buyer of the sale: until
  // 2026-12-06 the four runs shared one set, so only the first paid the token's signature check
  // and the others found it remembered (http/auth.ts), which put half a check in the refusal's
  // cost over the floor and none in the floor.
  const refusalBodies = seats.map((_, i) => body(seats[i % HOT_SEATS]));
  const buyersOf = (run) => tokens.slice((1 + run) * PHASE, (2 + run) * PHASE);
  const runs = { refusal: [], floor: [] };
  for (const round of [1, 2]) {
    const at = 2 * (round - 1);
    runs.refusal.push(await phase(buyersOf(at), refusalBodies, `bench-refusal-${round}`));
    runs.floor.push(await phase(buyersOf(at + 1), refusalBodies, `!${round}`));
  }
  const mean = ([a, b]) => ({
    cpuUs: Math.round((a.cpuUs + b.cpuUs) / 2),
    statuses: Object.fromEntries(
      [...new Set([...Object.keys(a.statuses), ...Object.keys(b.statuses)])].map((k) => [
        k,
        (a.statuses[k] ?? 0) + (b.statuses[k] ?? 0),
      ]),
    ),
  });
  return {
    success,
    refusal: mean(runs.refusal),
    floor: mean(runs.floor),
    idleUsPerS: Math.round(idleUsPerMs * 1000),
  };
}

/** A session of its own with `n` seats and `n` buyers for --warm-successes. */
async function seedWarm(deps, n) {
  const [session] = await seedTour(deps, { sessions: 1, seatsPerSession: n, zoneCapacity: 1 });
  return { session, tokens: await seedUsers(deps, n) };
}

/** Each warm buyer buys one seat nobody else asks for: all must be 201, or the run stops. */
async function warmSuccesses(url, { session, tokens }) {
  const bodies = tokens.map((_, i) =>
    JSON.stringify({ sessionId: session.id, seatIds: [session.seatIds[i]] }),
  );
  const samples = await purchaseRun(url, tokens, bodies, 'bench-warm');
  const created = samples.filter((x) => x[2] === 201).length;
  if (created !== tokens.length)
    throw new Error(`--warm-successes: ${created} of ${tokens.length} purchases succeeded`);
  console.log(`warmed: ${created} successful purchases on session ${session.id}`);
}

/** Rates over the selling window: up to the last committed order (refusals after a sell-out are cheap). */
function summarize(samples) {
  const ok = samples.filter((s) => s[2] === 201);
  const lastOk = ok.reduce((m, s) => Math.max(m, s[0]), 0);
  const inWindow = samples.filter((s) => s[0] <= lastOk);
  const lat = inWindow.map((s) => s[1]).sort((a, b) => a - b);
  const statuses = {};
  for (const s of samples) statuses[s[2]] = (statuses[s[2]] ?? 0) + 1;
  const windowS = lastOk / 1000;
  return {
    windowS,
    purchaseRps: inWindow.length / windowS,
    ordersPerS: ok.length / windowS,
    p50: percentile(lat, 50),
    p99: percentile(lat, 99),
    p99ByStatus: p99ByStatus(inWindow.map(([, ms, status]) => [ms, status])),
    ...tailBySecond(inWindow),
    created: ok.length,
    statuses,
  };
}

/**
 * Where the tail sits in time: the p99 of the answers that ended in the sale's first second
 * (the sale opens on an instance that has not run a purchase yet, and nearly every request is
 * a sale), the p99 of the rest, and the second after the first whose own p99 was the highest
 * (a pause of the server, a garbage collection of its old generation, shows as one such second).
 */
function tailBySecond(inWindow) {
  const sorted = (xs) => xs.sort((a, b) => a - b);
  const bySecond = new Map();
  for (const [endMs, ms] of inWindow) {
    const s = Math.floor(endMs / 1000);
    if (!bySecond.has(s)) bySecond.set(s, []);
    bySecond.get(s).push(ms);
  }
  const later = [...bySecond].filter(([s]) => s > 0);
  const worst = later
    .map(([s, ms]) => ({ second: s, p99: percentile(sorted(ms), 99) }))
    .reduce((w, x) => (x.p99 > w.p99 ? x : w), { second: null, p99: 0 });
  return {
    p99FirstS: percentile(sorted(bySecond.get(0) ?? []), 99),
    p99AfterFirstS: percentile(sorted(later.flatMap(([, ms]) => ms)), 99),
    worstSecond: worst,
  };
}

/** The run's JSON (its last line) and a one-line summary before it. */
function resultOf({
  a,
  capacity,
  s,
  hello,
  helloAfter,
  cpu,
  kernel,
  requests,
  phases,
  rawUs,
  scriptCalls,
  refusalMaxAgeMs,
}) {
  const refused = requests - s.created;
  const cpuPerRequest = Object.fromEntries(
    Object.entries(cpu).map(([k, v]) => [k, Math.round(v / requests)]),
  );
  const helloMax = Math.max(hello.rps, helloAfter.rps);
  const result = {
    scenario: 'flash-sale',
    buyers: BUYERS,
    sessions: SESSIONS,
    connections: CONNECTIONS,
    sold: a.sold,
    capacity,
    oversold: Math.max(0, a.sold - capacity) + a.oversoldSessions,
    double_sold: a.doubleSold,
    created_201: s.created,
    committed_orders: a.orders,
    redis_mysql_diff: a.redisDiff,
    selling_window_s: Number(s.windowS.toFixed(2)),
    purchase_rps: Math.round(s.purchaseRps),
    orders_per_s: Math.round(s.ordersPerS),
    p50_ms: Number(s.p50.toFixed(1)),
    p99_ms: Number(s.p99.toFixed(1)),
    p99_ms_by_status: s.p99ByStatus,
    p99_ms_first_s: Number(s.p99FirstS.toFixed(1)),
    p99_ms_after_first_s: Number(s.p99AfterFirstS.toFixed(1)),
    worst_second: { second: s.worstSecond.second, p99_ms: Number(s.worstSecond.p99.toFixed(1)) },
    hello_rps: Math.round(hello.rps),
    hello_rps_after: Math.round(helloAfter.rps),
    // Against the higher of the two hello-worlds, as the queue benchmark's ratios: one measured
    // while the machine was busy elsewhere read 40% low and flattered the ratio.
    ratio: Number((s.purchaseRps / helloMax).toFixed(3)),
    // The ratio a server at the route's floor would reach on this machine in this run (above).
    ratio_ceiling_at_floor: ratioCeilingAtFloor(phases.floor.cpuUs, cpuPerRequest, helloMax),
    statuses: s.statuses,
    // Lua script calls Redis answered during the sale: each success is one take script, and so
    // is each refusal the instance could not give from what it knew (orders/refusals.ts); the
    // server's jobs add a few, so the share of refusals given without Redis is at least this.
    redis_script_calls: scriptCalls,
    refusals_without_script: refused
      ? Number(Math.max(0, 1 - (scriptCalls - s.created) / refused).toFixed(3))
      : null,
    // The staleness bound of those refusals (REFUSAL_SNAPSHOT_MAX_AGE_MS) the server ran with.
    refusal_snapshot_max_age_ms: refusalMaxAgeMs,
    // CPU microseconds per purchase request, by process (the machine's two cores are shared)
    cpu_us_per_request: cpuPerRequest,
    // The server's part of it spent in the kernel (its socket reads and writes, mostly), and the
    // hello-world's: what no code of ours can take away, read from /proc rather than a profile
    server_kernel_us_per_request: Math.round(kernel.server / requests),
    hello_kernel_us: Math.round(hello.kernelUs),
    ...phaseFigures(phases, hello, rawUs, ratioCeilingAtFloor(rawUs, cpuPerRequest, helloMax)),
    ...saleAgainstPhases({ a, s, requests, refused, serverUs: cpuPerRequest.server, phases }),
    phase_statuses: {
      success: phases.success.statuses,
      refusal: phases.refusal.statuses,
      floor: phases.floor.statuses,
    },
    server_idle_cpu_us_per_s: phases.idleUsPerS,
    pinned: args.pin === true,
    // What sent the purchases and the hello-world's GETs (bench/closed-loop.mjs; autocannon until 2026-12-07).
    load_client: 'closed-loop',
    at: new Date().toISOString(),
  };
  console.log(
    `sold ${a.sold}/${result.capacity}, oversold ${result.oversold}, double-sold ${a.doubleSold}; ` +
      `${result.purchase_rps} purchase req/s, ${result.orders_per_s} orders/s over ${result.selling_window_s}s; ` +
      `p50 ${result.p50_ms} ms, p99 ${result.p99_ms} ms; hello-world ${result.hello_rps} req/s; ratio ${result.ratio} (at the floor's CPU: ${result.ratio_ceiling_at_floor}); ` +
      `CPU µs/request ${JSON.stringify(result.cpu_us_per_request)}; ` +
      `server CPU µs per success ${result.success_cpu_us}, per refusal ${result.refusal_cpu_us} ` +
      `(hello-world ${result.hello_cpu_us}: a refusal costs ${result.refusal_over_hello} of them; ` +
      `the route's floor ${result.floor_cpu_us}, a raw node:http server ${result.raw_purchase_cpu_us}: ` +
      `ratio at most ${result.ratio_ceiling_at_raw} at its CPU)`,
  );
  return result;
}

async function main() {
  const startedAt = new Date().toISOString();
  // The bench is one address: the per-address limits are off; per-user limits stay on.
  const bench = await openBench('flash', { RATE_PURCHASE_IP: '0/1' });
  const { deps, url } = bench;
  console.log(`seeding: ${SESSIONS} sessions x (${SEATS} seats + ${ZONE}-unit zone), ${BUYERS} buyers`);
  try {
    const tour = await seedTour(deps, { sessions: SESSIONS, seatsPerSession: SEATS, zoneCapacity: ZONE });
    const tokens = await seedUsers(deps, BUYERS);
    const bodies = buyerBodies(tour, BUYERS, 20261130);
    const capacity = tour.reduce((a, s) => a + s.capacity, 0);
    const [probe] = await seedTour(deps, { sessions: 1, seatsPerSession: SEATS, zoneCapacity: 1 });
    // cpuPhases: the success phase's buyers, then each refusal and floor run's (two of each).
    const probeTokens = await seedUsers(deps, 5 * PHASE);
    const warm = WARM_SUCCESSES > 0 ? await seedWarm(deps, WARM_SUCCESSES) : undefined;

    console.log('measuring the Koa hello-world ceiling ...');
    const hello = await ceiling();
    console.log(`hello-world: ${Math.round(hello.rps)} req/s`);

    const servers = await startServers(bench, SERVERS, pin);
    await autocannon({
      url: `${url}/api/v1/sessions/${tour[0].id}/seat-states`,
      connections: 20,
      duration: 1,
    }); // JIT warm-up
    // Before an on-sale, fans sit on each session's seat map: the instance has each catalog by
    // then. Without this, the sale's first second loaded nine catalogs of 10,000 seats each
    // (p99 of that second ~850 ms against ~205 ms with it, 2026-12-03), a cold start, not a sale.
    await openSeatMaps(url, tour, SERVERS);
    if (warm) await warmSuccesses(url, warm);
    console.log(`selling ${capacity} units to ${BUYERS} buyers over ${CONNECTIONS} connections ...`);
    const serverMeter = servers.meter();
    const meter = cpuMeter({ ...storePids(), loadgen: process.pid });
    const kernelMeter = servers.meter({ kernel: true });
    const scriptsBefore = await redisScriptCalls(deps.redis);
    const samples = await purchaseRun(url, tokens, bodies);
    const cpu = { ...serverMeter(), ...meter() };
    const kernel = kernelMeter();
    const scriptCalls = (await redisScriptCalls(deps.redis)) - scriptsBefore;
    const s = summarize(samples);
    console.log(
      `CPU phases: ${PHASE} successes, ${PHASE} refusals of the same seats, ${PHASE} at the floor ...`,
    );
    const phases = await cpuPhases(url, servers, probe, probeTokens);
    await servers.stop();
    // Not pinned with --pin: its figure is CPU per request, which pinning barely moves.
    console.log('measuring a raw node:http server on the same purchase request ...');
    const raw = await measureRaw('purchase', { connections: CONNECTIONS, seconds: smoke ? 2 : 4 });

    const result = resultOf({
      a: await audit(deps, tour),
      capacity,
      s,
      hello,
      helloAfter: await ceiling(),
      cpu,
      kernel,
      requests: samples.length,
      phases,
      rawUs: raw.user_us + raw.kernel_us,
      scriptCalls,
      refusalMaxAgeMs: bench.config.refusalSnapshotMaxAgeMs,
    });
    result.warm_successes = WARM_SUCCESSES;
    result.servers = SERVERS;
    report(result, { save: !smoke, at: startedAt });
    if (result.oversold || result.double_sold || result.created_201 !== result.committed_orders)
      process.exitCode = 1;
  } finally {
    await bench.close();
  }
}

runMain(main);
