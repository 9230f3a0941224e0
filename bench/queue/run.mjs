// Waiting-room benchmark: 200,000 fans join one session's queue and poll it while the sale
// runs and admitted fans buy. Last line: one JSON object (fans, joins_per_s, polls_per_s,
// purchase_p99_ms, out_of_order, hello_rps and the ratios joins_ratio / polls_ratio to it,
// hello_redis_cpu_us and poll_cpu_over_hello_redis: a poll's CPU over a hello-world's plus one Redis call, ...).
// The hello-world is measured before and after; the ratios take the higher of the two: measured
// once, right after the server started, it was sometimes 40% low (the machine busy elsewhere),
// which made the ratios look better than they were.
// Usage: npm run bench -- --scenario queue [--fans N --seconds S --smoke]
import http from 'node:http';
import { closedLoop, timedLoop } from '../closed-loop.mjs';
import {
  cpuMeter,
  idleCpuUsPerMs,
  helloCeiling,
  openBench,
  percentile,
  pidOf,
  report,
  rng,
  runMain,
  scenarioArgs,
} from '../lib.mjs';
import { seedTour, seedUsers } from '../flash-sale/seed.mjs';
import { errorKinds, joinOrder, outOfOrder } from './answers.mjs';

const { smoke, num } = scenarioArgs();
const FANS = num('fans', 200_000, 5000);
const POLL_SECONDS = num('seconds', 20, 4);
const RATE_PER_MIN = num('rate', 30_000);
const CONNECTIONS = num('connections', 100);
const BUYERS = 20; // concurrent admitted fans buying
/** What the bench's server is told: limits that would throttle the crowd's own load, off. */
const SERVER_ENV = {
  RATE_QUEUE_IP: '0/1',
  RATE_PURCHASE_IP: '0/1',
  RATE_QUEUE_USER: '100000/60',
  RATE_POLL_USER: '100000/60',
  RATE_POLL_IP: '0/1',
  QUEUE_RATE_PER_MIN: String(RATE_PER_MIN),
};
const HELLO_SECONDS = smoke ? 2 : 8;
/** Polls alone, before the buyers start (pollsAlone). */
const POLLS_ALONE_SECONDS = smoke ? 2 : 5;
/** The server left idle after the polls alone, to measure what its jobs cost per second. */
const IDLE_MS = 2_000;
/**
 * The Koa hello-world ceiling (lib.mjs helloCeiling), as every measurement in this run takes it:
 * through the same closed loop as the joins and polls (closed-loop.mjs).
 */
const ceiling = () =>
  helloCeiling({ connections: CONNECTIONS, seconds: HELLO_SECONDS, client: 'closed-loop' });
/**
 * The floor for a poll and a join: the same hello-world plus one Redis script call
 * (bench/flash-sale/hello.mjs with HELLO_REDIS_URL), on the bench's Redis under its key prefix.
 */
const helloPlusRedis = (config) =>
  helloCeiling({
    connections: CONNECTIONS,
    seconds: HELLO_SECONDS,
    client: 'closed-loop',
    env: { HELLO_REDIS_URL: config.redisUrl, HELLO_KEY_PREFIX: config.redisKeyPrefix },
  });

async function joinAll(url, sessionId, tokens) {
  const places = new Array(tokens.length);
  let ok = 0;
  let errors = 0;
  // Timed to the last answer.
  let lastAt = 0;
  const failed = errorKinds();
  const path = `/api/v1/sessions/${sessionId}/queue/join`;
  const t0 = performance.now();
  await closedLoop({
    url,
    connections: CONNECTIONS,
    next: (i) =>
      i < tokens.length
        ? {
            method: 'POST',
            path,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[i]}` },
            body: '{}',
            readBody: true,
          }
        : undefined,
    onAnswer: (status, sentAt, now, body, fan) => {
      lastAt = now;
      if (status !== 200) {
        errors++;
        return failed.answer(status, body);
      }
      ok++;
      places[fan] = JSON.parse(body).position;
    },
    onError: (err) => {
      errors++;
      failed.error(err);
    },
  });
  return {
    // Joins that succeeded, over the time to the last answer.
    perS: ok / ((lastAt - t0) / 1000),
    errors,
    errorKinds: failed.kinds,
    places,
    ok,
  };
}

/** Polls in the crowd's request list, each by a fan drawn at random (the list repeats). */
const CROWD_POLLS = 2048;

/**
 * Random fans poll for `seconds` through the closed loop (closed-loop.mjs), as the hello-world's
 * GETs are sent. Every 16th poll is kept (parsing all of them would make the load generator, not
 * the server, the limit) to check that admission never goes out of order; a failed poll's kind
 * is noted whichever it was. Until 2026-12-07 the polls went through autocannon, whose CPU per
 * request (80-117 µs a poll in this bench's runs) came out of the two cores the server shares.
 */
async function pollMany(url, sessionId, tokens, seconds, observations) {
  const rnd = rng(7);
  const failed = errorKinds();
  const path = `/api/v1/sessions/${sessionId}/queue`;
  const requests = Array.from({ length: CROWD_POLLS }, () => ({
    method: 'GET',
    path,
    headers: { authorization: `Bearer ${tokens[Math.floor(rnd() * tokens.length)]}` },
    readBody: true,
  }));
  const r = await timedLoop({
    url,
    connections: CONNECTIONS,
    seconds,
    next: (i) => requests[i % CROWD_POLLS],
    ok: (status) => status === 200,
    onAnswer: (status, sentAt, now, body, i) => {
      if (status !== 200) failed.answer(status, body);
      else if (i % 16 === 0) observations.push([now, JSON.parse(body), sentAt]);
    },
    onError: (err) => failed.error(err),
  });
  return { perS: r.rps, answered: r.answered, errors: r.wrong + r.failed, errorKinds: failed.kinds };
}

/**
 * One request on the buyers' kept-alive connections, its body as text. node:http: fetch cost the
 * load generator about a third of its CPU for an eighth of the requests.
 */
function send(agent, url, { method = 'GET', headers, body }) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Fans in place order wait for their turn (polling), then buy one seat with their token. */
async function buyInTurn(url, sessionId, tokens, order, seatIds, untilMs, observations) {
  const latencies = [];
  const statuses = {};
  let next = 0;
  let polls = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: BUYERS });
  const auth = (i) => ({ authorization: `Bearer ${tokens[i]}`, 'content-type': 'application/json' });
  const worker = async () => {
    while (performance.now() < untilMs && next < order.length) {
      const fan = order[next++];
      for (;;) {
        if (performance.now() >= untilMs) return;
        const sentAt = performance.now();
        const st = JSON.parse(
          (await send(agent, `${url}/api/v1/sessions/${sessionId}/queue`, { headers: auth(fan) })).text,
        );
        polls++;
        observations.push([performance.now(), st, sentAt]);
        if (st.admitted) {
          const t0 = performance.now();
          const body = JSON.stringify({
            sessionId,
            seatIds: [seatIds[fan % seatIds.length]],
            admissionToken: st.admissionToken,
          });
          const { status } = await send(agent, `${url}/api/v1/orders`, {
            method: 'POST',
            headers: auth(fan),
            body,
          });
          latencies.push(performance.now() - t0);
          statuses[status] = (statuses[status] ?? 0) + 1;
          break;
        }
        if (st.state === 'sold_out' || st.state === 'expired') break;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  await Promise.all(Array.from({ length: BUYERS }, worker));
  agent.destroy();
  return { latencies: latencies.sort((a, b) => a - b), polls, statuses };
}

/**
 * The crowd's polls with no purchase running: the server's CPU per poll, to hold against the
 * floor without the buyers' purchases, which the main phase's cpu_us_per_poll includes (a
 * purchase costs a few polls). Its answers are not checked for order (the main phase does).
 */
async function pollsAlone(url, sessionId, tokens, serverPid) {
  console.log(`polling alone for ${POLLS_ALONE_SECONDS} s ...`);
  const meter = cpuMeter({ server: serverPid });
  const kernelMeter = cpuMeter({ server: serverPid }, { kernel: true });
  const polls = await pollMany(url, sessionId, tokens, POLLS_ALONE_SECONDS, []);
  const n = Math.max(1, polls.answered);
  // Its errors too: a phase of cheap error answers would make the polls look cheap.
  const cpuUs = meter().server / n;
  const kernelUs = kernelMeter().server / n;
  // The server's jobs run with no request at all (the admission tick at RATE_PER_MIN records its
  // admissions in MySQL, the outbox relay, the expiry sweeps); the hello-world floor has none.
  // Measured right after, with nothing sent, and taken out for netCpuUs (as the flash bench does).
  const idleUsPerS = (await idleCpuUsPerMs(serverPid, IDLE_MS)) * 1000;
  const netCpuUs = cpuUs - (idleUsPerS * POLLS_ALONE_SECONDS) / n;
  return { cpuUs, kernelUs, netCpuUs, idleUsPerS, errors: polls.errors, errorKinds: polls.errorKinds };
}

/**
 * A phase's result with the CPU it cost: the server's, Redis's and this load generator's, and the
 * server's time in the kernel. (MariaDB is left out: several run on this machine and `pidof -s`
 * may pick another one.)
 */
async function metered(serverPid, phase) {
  const meter = cpuMeter({ server: serverPid, redis: pidOf('redis-server'), loadgen: process.pid });
  const kernelMeter = cpuMeter({ server: serverPid }, { kernel: true });
  const result = await phase();
  return { result, cpu: meter(), kernel: kernelMeter() };
}

/** The crowd polls for POLL_SECONDS while the fans admitted in turn buy, metered. */
async function pollWhileBuying(url, session, tokens, order, server) {
  console.log(`polling for ${POLL_SECONDS} s while admitted fans buy ...`);
  const observations = [];
  const until = performance.now() + POLL_SECONDS * 1000;
  const m = await metered(server.child.pid, () =>
    Promise.all([
      pollMany(url, session.id, tokens, POLL_SECONDS, observations),
      buyInTurn(url, session.id, tokens, order, session.seatIds, until, observations),
    ]),
  );
  const [polls, buys] = m.result;
  return { polls, buys, cpu: m.cpu, kernel: m.kernel, observations };
}

/** One session on sale with its waiting room, and FANS fans' tokens. */
async function seedRoom(deps) {
  console.log(`seeding one session with a waiting room and ${FANS} fans ...`);
  const [session] = await seedTour(deps, { sessions: 1, seatsPerSession: 10_000, zoneCapacity: 10_000 });
  await deps.db.query('UPDATE show_sessions SET queue_enabled = 1, queue_rate_per_min = ? WHERE id = ?', [
    RATE_PER_MIN,
    session.id,
  ]);
  return { session, tokens: await seedUsers(deps, FANS) };
}

/** The Koa hello-world, then the same plus one Redis call (the poll's floor), one after the other. */
async function measureFloors(config) {
  console.log('measuring the Koa hello-world ceiling ...');
  const hello = await ceiling();
  console.log(`hello-world: ${Math.round(hello.rps)} req/s`);
  const helloRedis = await helloPlusRedis(config);
  console.log(`hello-world plus one Redis call: ${Math.round(helloRedis.rps)} req/s`);
  return { hello, helloRedis };
}

async function main() {
  const bench = await openBench('queue', SERVER_ENV);
  const { deps, url } = bench;
  try {
    const { session, tokens } = await seedRoom(deps);
    const server = await bench.startServer();
    // the lifecycle job finds the session on sale and opens its waiting room
    await new Promise((r) => setTimeout(r, 3000));

    const { hello, helloRedis } = await measureFloors(bench.config);
    console.log('joining ...');
    const j = await metered(server.child.pid, () => joinAll(url, session.id, tokens));
    const [joins, joinCpu, joinKernel] = [j.result, j.cpu, j.kernel];
    const order = joinOrder(joins.places);
    console.log(`${Math.round(joins.perS)} joins/s`);
    const alone = await pollsAlone(url, session.id, tokens, server.child.pid);
    const { polls, buys, cpu, kernel, observations } = await pollWhileBuying(
      url,
      session,
      tokens,
      order,
      server,
    );
    await server.stop();
    // Polls served: the crowd's and the buying fans' own (they poll until their turn).
    const requests = polls.answered + buys.polls;
    const ordering = outOfOrder(observations);
    const helloAfter = await ceiling();
    const ceilingRps = Math.max(hello.rps, helloAfter.rps);
    const result = {
      scenario: 'queue',
      fans: FANS,
      joined: joins.ok,
      joins_per_s: Math.round(joins.perS),
      join_errors: joins.errors,
      join_error_kinds: joins.errorKinds,
      hello_rps: Math.round(hello.rps),
      hello_rps_after: Math.round(helloAfter.rps),
      joins_ratio: Number((joins.perS / ceilingRps).toFixed(3)),
      polls_ratio: Number((requests / POLL_SECONDS / ceilingRps).toFixed(3)),
      polls_per_s: Math.round(requests / POLL_SECONDS),
      crowd_polls_per_s: Math.round(polls.perS),
      buyer_polls_per_s: Math.round(buys.polls / POLL_SECONDS),
      poll_errors: polls.errors,
      poll_error_kinds: polls.errorKinds,
      purchases: buys.latencies.length,
      purchase_p50_ms: Number(percentile(buys.latencies, 50).toFixed(1)),
      purchase_p99_ms: Number(percentile(buys.latencies, 99).toFixed(1)),
      // what the purchases' answers were (their times above are every answer's)
      purchase_statuses: buys.statuses,
      out_of_order: ordering.bad,
      out_of_order_kinds: ordering.kinds,
      // CPU microseconds per poll during the polling phase (purchases included), by process
      cpu_us_per_poll: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, Math.round(v / requests)])),
      // CPU microseconds per join, by process (the server's includes its side of the joins' group
      // commit; MariaDB's own CPU is not measured, see the join meter)
      cpu_us_per_join: Object.fromEntries(Object.entries(joinCpu).map(([k, v]) => [k, Math.round(v / FANS)])),
      // the server's CPU per poll and per join spent in the kernel (socket reads and writes,
      // mostly; read from /proc), and the hello-world's: the part no code of ours takes away
      server_kernel_us_per_poll: Math.round(kernel.server / requests),
      server_kernel_us_per_join: Math.round(joinKernel.server / FANS),
      hello_kernel_us: Math.round(hello.kernelUs),
      // what the hello-world process spends per request (same load generator, same connections)
      hello_cpu_us: Math.round(hello.cpuUs),
      // and what the load generator spends per hello-world request (compare cpu_us_per_poll.loadgen)
      hello_loadgen_cpu_us: Math.round(hello.loadgenUs),
      // the floor for a poll: the hello-world plus one Redis script call (flash-sale/hello.mjs),
      // its req/s and its process's CPU per request, and the server's CPU per poll and per join
      // over that floor (1: a poll costs exactly the floor; polls include the buyers' purchases)
      hello_redis_rps: Math.round(helloRedis.rps),
      hello_redis_cpu_us: Math.round(helloRedis.cpuUs),
      poll_cpu_over_hello_redis: Number((cpu.server / requests / helloRedis.cpuUs).toFixed(2)),
      // the same for polls alone (POLLS_ALONE_SECONDS before the buyers start; the jobs still run)
      poll_alone_cpu_us: Math.round(alone.cpuUs),
      poll_alone_kernel_us: Math.round(alone.kernelUs),
      poll_alone_over_hello_redis: Number((alone.cpuUs / helloRedis.cpuUs).toFixed(2)),
      // the server's CPU per second with nothing sent (its jobs), right after the polls alone,
      // and the polls alone without it: what a poll costs, as the floor's process has no jobs
      server_idle_cpu_us_per_s: Math.round(alone.idleUsPerS),
      poll_alone_net_cpu_us: Math.round(alone.netCpuUs),
      poll_alone_net_over_hello_redis: Number((alone.netCpuUs / helloRedis.cpuUs).toFixed(2)),
      poll_alone_errors: alone.errors,
      poll_alone_error_kinds: alone.errorKinds,
      join_cpu_over_hello_redis: Number((joinCpu.server / FANS / helloRedis.cpuUs).toFixed(2)),
      load_avg: (await import('node:os')).loadavg().map((x) => Number(x.toFixed(2))),
      admission_rate_per_min: RATE_PER_MIN,
      // What sent the joins, the crowd's polls and the hello-worlds' GETs (closed-loop.mjs;
      // autocannon until 2026-12-07).
      load_client: 'closed-loop',
      at: new Date().toISOString(),
    };
    report(result, { save: !smoke, at: result.at });
    if (result.out_of_order || result.joined !== FANS) process.exitCode = 1;
  } finally {
    await bench.close();
  }
}

runMain(main);
