// A/B: server CPU per request of two configurations (or two builds: BENCH_SERVER_DIST), side by side.
// Usage: npm run bench -- --scenario ab [--a-env '{"LOG_REQUEST_CONTEXT":"on"}'
//   --b-env '{"LOG_REQUEST_CONTEXT":"off"}' --cases livez,refusal,success,poll,join,states --rounds 7 --requests 8000
//   --alloc --smoke]
// Both servers run at once on one database (jobs off on both, so neither pays for them), and the
// rounds alternate which goes first: on a shared machine whose speed drifts by 2x within
// minutes, two servers measured one after the other differ by more than most changes do. Last
// line: JSON with each case's CPU µs per request for A and B, round by round, and B / A.
// --alloc: each kept round also samples what the server allocates (bench/alloc-sampling.cjs) and
// adds each case's bytes per request, round by round, and the last round's largest allocating
// functions; allocations barely drift with the machine's speed, so they compare across runs too.
// The sampling costs CPU on both sides alike: compare CPU within an --alloc run, not with another.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import {
  cpuMeter,
  nodeVersionOf,
  openBench,
  percentile,
  postOrders,
  report,
  root,
  runMain,
  scenarioArgs,
} from '../lib.mjs';
import { seedTour, seedUsers } from '../flash-sale/seed.mjs';
import { summarizeAlloc } from '../allocprofile.mjs';

const { args, smoke, num } = scenarioArgs();
const ROUNDS = num('rounds', 7, 2);
const REQUESTS = num('requests', 8000, 1000);
const CASES = String(args.cases ?? 'livez,refusal').split(',');
const ALLOC_DIR = args.alloc ? mkdtempSync(path.join(os.tmpdir(), 'showtix-alloc-')) : undefined;
const A_ENV = withAlloc(JSON.parse(args['a-env'] ?? '{}'));
const B_ENV = withAlloc(JSON.parse(args['b-env'] ?? '{}'));
/** Seats the refusal case asks for: bought in the warm-up, then asked for by many buyers. */
const HOT_SEATS = 50;
/** Fans in the poll case's waiting room, each polling in turn. */
const POLLERS = 200;
const CONNECTIONS = 100;

const median = (xs) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

/** A side's environment, with the allocation sampler preloaded when --alloc asks for it. */
function withAlloc(env) {
  if (!ALLOC_DIR) return env;
  const nodeArgs = env.BENCH_SERVER_NODE_ARGS ?? process.env.BENCH_SERVER_NODE_ARGS ?? '';
  const preload = `--require ${path.join(root, 'bench/alloc-sampling.cjs')}`;
  return { ...env, BENCH_SERVER_NODE_ARGS: `${nodeArgs} ${preload}`.trim(), BENCH_ALLOC_DIR: ALLOC_DIR };
}

const until = async (done, what) => {
  for (let i = 0; !done(); i++) {
    if (i > 600) throw new Error(`--alloc: ${what} did not come within 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/**
 * Runs `fn` while the server `pid` samples its allocations (SIGUSR2 starts and stops it, see
 * bench/alloc-sampling.cjs); returns the profile's summary per request of `requests`.
 */
async function sampled(pid, requests, fn) {
  const marker = path.join(ALLOC_DIR, `alloc-${pid}.sampling`);
  const count = (sampled.count[pid] = (sampled.count[pid] ?? 0) + 1);
  const file = path.join(ALLOC_DIR, `alloc-${pid}-${count}.heapprofile`);
  process.kill(pid, 'SIGUSR2');
  await until(() => existsSync(marker), 'the sampler');
  await fn();
  process.kill(pid, 'SIGUSR2');
  await until(() => existsSync(file), 'the allocation profile');
  const s = summarizeAlloc(JSON.parse(readFileSync(file, 'utf8')), { requests, top: 12 });
  rmSync(file);
  return s;
}
sampled.count = {};

/** Cases whose every request is by a fan of its own (a token each): purchases and joins. */
const BUYER_CASES = ['refusal', 'floor', 'success', 'join'];

/**
 * livez: the whole middleware stack and the routers, no logic. unknown: a GET of a path no route
 * has (404), as scanners and stale clients send: every router looked at it until 2026-12-06
 * (http/router-table.ts). refusal: a purchase of a seat
 * another buyer holds (409 from what the instance knows, orders/refusals.ts), each by a buyer
 * of its own, as in a sale. floor: the same requests with a malformed Idempotency-Key, refused
 * 400 once the token is checked and the body parsed, before the order service. success: a
 * purchase that succeeds (one unit of the standing zone, whose capacity outlasts every round),
 * each by a buyer of its own: the hold, the order's group-committed record and the 201. poll:
 * the waiting room's poll, by fans in the room in turn. join: a join of the waiting room, each
 * by a fan of its own (the first check of the fan's token, the script, the group-committed record
 * and the answer). states: an open seat map's poll of the seat states when nothing changed (since
 * its version).
 */
function caseRunner(c, probe, takeTokens, room) {
  const body = (i) => JSON.stringify({ sessionId: probe.id, seatIds: [probe.seatIds[i % HOT_SEATS]] });
  const zoneBody = JSON.stringify({ sessionId: probe.id, zoneId: probe.zoneId, quantity: 1 });
  if (c === 'livez')
    return (url) => autocannon({ url: `${url}/livez`, connections: CONNECTIONS, amount: REQUESTS });
  if (c === 'unknown')
    return (url) =>
      autocannon({ url: `${url}/api/v1/no-such-path`, connections: CONNECTIONS, amount: REQUESTS });
  const hotSeatPurchases = (keyPrefix) => (url) =>
    postOrders({
      url,
      connections: CONNECTIONS,
      tokens: takeTokens(REQUESTS),
      bodies: Array.from({ length: REQUESTS }, (_, i) => body(i)),
      keyTag: `${keyPrefix}${Math.random().toString(36).slice(2)}`,
      onResponse: () => {},
    });
  if (c === 'refusal') return hotSeatPurchases('ab-');
  // '!' is not allowed in an idempotency key: 400 once the buyer's token is checked and the body
  // parsed, before the order service runs (the flash sale's floor_cpu_us).
  if (c === 'floor') return hotSeatPurchases('!');
  if (c === 'success')
    return async (url) => {
      const other = {};
      await postOrders({
        url,
        connections: CONNECTIONS,
        tokens: takeTokens(REQUESTS),
        bodies: Array.from({ length: REQUESTS }, () => zoneBody),
        keyTag: `ab-${Math.random().toString(36).slice(2)}`,
        onResponse: (status) => {
          if (status !== 201) other[status] = (other[status] ?? 0) + 1;
        },
      });
      // A case that stopped succeeding measures something else: the run ends with the statuses.
      if (Object.keys(other).length) throw new Error(`success case answered ${JSON.stringify(other)}`);
    };
  if (c === 'poll')
    return (url) => autocannon({ url, connections: CONNECTIONS, amount: REQUESTS, requests: room.polls });
  if (c === 'join')
    return async (url) => {
      const fans = takeTokens(REQUESTS);
      let next = 0;
      const request = {
        method: 'POST',
        path: room.joinPath,
        setupRequest: (req) => ({
          ...req,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${fans[next++]}` },
          body: '{}',
        }),
      };
      const r = await autocannon({ url, connections: CONNECTIONS, amount: REQUESTS, requests: [request] });
      if (r.non2xx || r.errors) throw new Error(`join case: ${r.non2xx} non-2xx, ${r.errors} errors`);
    };
  if (c === 'states')
    return (url) =>
      autocannon({
        url: `${url}/api/v1/sessions/${probe.id}/seat-states?since=${room.statesVersion}`,
        connections: CONNECTIONS,
        amount: REQUESTS,
      });
  throw new Error(`unknown case ${c}: livez, unknown, refusal, floor, success, poll, join or states`);
}

/** A session with its waiting room on, `tokens`' fans in it, and one poll request per fan. */
async function pollRoom(bench, url, tokens) {
  const [s] = await seedTour(bench.deps, { sessions: 1, seatsPerSession: 10, zoneCapacity: 10 });
  await bench.deps.db.query('UPDATE show_sessions SET queue_enabled = 1 WHERE id = ?', [s.id]);
  // The room opens (the lifecycle job's tick, but jobs are off here): joins then queue in order.
  await bench.deps.queue.tick(await bench.deps.catalog.requireSession(String(s.id)), new Date());
  const path = `/api/v1/sessions/${s.id}/queue`;
  for (const t of tokens) {
    const headers = { authorization: `Bearer ${t}`, 'content-type': 'application/json' };
    const res = await fetch(`${url}${path}/join`, { method: 'POST', headers, body: '{}' });
    if (res.status !== 200) throw new Error(`join: ${res.status} ${await res.text()}`);
  }
  const probe = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${tokens[0]}` } });
  const state = (await probe.json()).state;
  if (state !== 'waiting') throw new Error(`poll: ${probe.status} ${state}`);
  return {
    polls: tokens.map((t) => ({ method: 'GET', path, headers: { authorization: `Bearer ${t}` } })),
    joinPath: `${path}/join`,
  };
}

async function main() {
  const startedAt = new Date().toISOString();
  const bench = await openBench('ab', {
    RATE_PURCHASE_IP: '0/1',
    RATE_POLL_USER: '100000000/60',
    RATE_POLL_IP: '0/1',
    RATE_QUEUE_IP: '0/1',
    JOBS_ENABLED: 'false',
  });
  try {
    const perBuyerCase = REQUESTS * (ROUNDS + 1) * 2;
    const [probe] = await seedTour(bench.deps, {
      sessions: 1,
      seatsPerSession: 1000,
      zoneCapacity: perBuyerCase,
    });
    const buyerCases = CASES.filter((c) => BUYER_CASES.includes(c)).length;
    // The hot seats' buyers, the room's pollers and a fan of its own per buyer case's request.
    const tokens = await seedUsers(bench.deps, HOT_SEATS + POLLERS + perBuyerCase * Math.max(1, buyerCases));
    let used = HOT_SEATS;
    const takeTokens = (n) => tokens.slice(used, (used += n));
    const servers = { A: await bench.startServerWith(A_ENV), B: await bench.startServerWith(B_ENV) };
    // The hot seats, held by buyers of their own (through A: the refusal facts come from Redis).
    await postOrders({
      url: servers.A.url,
      connections: 10,
      tokens: tokens.slice(0, HOT_SEATS),
      bodies: probe.seatIds
        .slice(0, HOT_SEATS)
        .map((id) => JSON.stringify({ sessionId: probe.id, seatIds: [id] })),
      keyTag: 'ab-hot-seats',
      onResponse: () => {},
    });
    const states = await fetch(`${servers.A.url}/api/v1/sessions/${probe.id}/seat-states`);
    const room = {
      ...(CASES.includes('poll') || CASES.includes('join')
        ? await pollRoom(bench, servers.A.url, takeTokens(POLLERS))
        : {}),
      statesVersion: (await states.json()).version,
    };
    const cpu = { A: {}, B: {} };
    const alloc = { A: {}, B: {} };
    const measure = async (side, c, keep) => {
      const pid = servers[side].child.pid;
      const meter = cpuMeter({ s: pid });
      const run = () => caseRunner(c, probe, takeTokens, room)(servers[side].url);
      if (!keep || !ALLOC_DIR) await run();
      else (alloc[side][c] ??= []).push(await sampled(pid, REQUESTS, run));
      if (keep) (cpu[side][c] ??= []).push(Math.round(meter().s / REQUESTS));
    };
    for (let r = 0; r <= ROUNDS; r++) {
      // Round 0 warms both up (JIT) and is not kept; then the order alternates.
      const order = r % 2 ? ['B', 'A'] : ['A', 'B'];
      for (const c of CASES) for (const side of order) await measure(side, c, r > 0);
    }
    const cases = Object.fromEntries(CASES.map((c) => [c, caseResult(cpu, alloc, c)]));
    const result = {
      scenario: 'ab',
      a_env: A_ENV,
      b_env: B_ENV,
      // Each side's own Node (BENCH_SERVER_NODE in its env, else the bench's default).
      server_node: nodeVersionOf(A_ENV.BENCH_SERVER_NODE),
      b_server_node: nodeVersionOf(B_ENV.BENCH_SERVER_NODE),
      rounds: ROUNDS,
      requests: REQUESTS,
      cases,
      at: new Date().toISOString(),
    };
    for (const [c, v] of Object.entries(cases)) {
      console.log(
        `${c}: A ${JSON.stringify(v.a_cpu_us)} | B ${JSON.stringify(v.b_cpu_us)}; B/A (medians) ${v.b_over_a_median}`,
      );
      if (v.a_alloc_bytes)
        console.log(
          `  bytes allocated: A ${JSON.stringify(v.a_alloc_bytes)} | B ${JSON.stringify(v.b_alloc_bytes)}`,
        );
    }
    report(result, { save: !smoke, at: startedAt });
  } finally {
    await bench.close();
    if (ALLOC_DIR) rmSync(ALLOC_DIR, { recursive: true, force: true });
  }
}

/** One case's CPU per request (and bytes allocated per request, with --alloc) on both sides. */
function caseResult(cpu, alloc, c) {
  const out = {
    a_cpu_us: cpu.A[c],
    b_cpu_us: cpu.B[c],
    a_median: median(cpu.A[c]),
    b_median: median(cpu.B[c]),
    b_over_a_median: Number((median(cpu.B[c]) / median(cpu.A[c])).toFixed(3)),
    b_lower_rounds: cpu.A[c].filter((a, i) => cpu.B[c][i] < a).length,
  };
  if (!alloc.A[c]) return out;
  const bytes = (side) => alloc[side][c].map((s) => s.bytes);
  return {
    ...out,
    a_alloc_bytes: bytes('A'),
    b_alloc_bytes: bytes('B'),
    b_over_a_alloc_median: Number((median(bytes('B')) / median(bytes('A'))).toFixed(3)),
    // The last round's largest own allocations, bytes per request, by function.
    a_alloc_top: alloc.A[c].at(-1).functions,
    b_alloc_top: alloc.B[c].at(-1).functions,
  };
}

runMain(main);
