// Seat-state polls, the crowd's other load: every open seat map asks `seat-states?since=` every
// few seconds. Measures the idle poll (nothing changed since the fan's version, the common answer)
// straight to the API and through the deployment's nginx (deploy/nginx/showtix.conf.template, its
// micro-cache), alternated round by round, with the API's and nginx's CPU per poll.
// Usage: npm run bench -- --scenario seat-polls [--rounds 2 --seconds 6 --connections 100 --smoke]
// Last line: JSON {direct_polls_per_s, nginx_polls_per_s, api_cpu_us_per_poll_direct,
// api_cpu_us_per_poll_nginx, nginx_cpu_us_per_poll, hello_rps, direct_ratio, nginx_ratio, rounds,
// ...}, also written to bench/results/.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import {
  cpuMeter,
  freePort,
  helloCeiling,
  idleCpuUsPerMs,
  openBench,
  report,
  runMain,
  scenarioArgs,
} from '../lib.mjs';
import { seedTour } from '../flash-sale/seed.mjs';

const require = createRequire(import.meta.url);
const { site, startNginx } = require('../../scripts/lib/nginx.js');

const { smoke, num } = scenarioArgs();
const SEATS = smoke ? 1000 : 10_000;
const ROUNDS = num('rounds', 2, 1);
const SECONDS = num('seconds', 6, 2);
const CONNECTIONS = num('connections', 100);

const mean = (xs) => Number((xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1));

/** The deployment's nginx in front of `upstream` (host:port), in a prefix of its own. */
async function nginxInFront(upstream) {
  const port = await freePort();
  const prefix = mkdtempSync(path.join(tmpdir(), 'showtix-bench-nginx-'));
  const conf = site('showtix.conf.template', port, { SHOWTIX_UPSTREAM: upstream });
  const nginx = await startNginx(prefix, conf, port, 4096);
  // Its workers do the serving (the master only supervises).
  const workers = execFileSync('pgrep', ['-P', String(nginx.child.pid)])
    .toString()
    .trim()
    .split('\n')
    .map(Number);
  return {
    url: nginx.url,
    workers,
    async close() {
      await nginx.close();
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

/**
 * One measured run of idle polls against `base`: polls/s and CPU µs per poll of each process,
 * the API's less its jobs' (`apiIdleUsPerMs`): through nginx the API answers almost none of the
 * polls, and until 2026-12-06 its jobs' CPU over the run was most of its figure there.
 */
async function pollRun(base, pollPath, pids, apiIdleUsPerMs) {
  const url = base + pollPath;
  await autocannon({ url, connections: CONNECTIONS, duration: 1 }); // warm-up
  const meter = cpuMeter(pids);
  const t0 = performance.now();
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  const cpu = meter();
  const apiBusy = Math.max(0, cpu.api - apiIdleUsPerMs * (performance.now() - t0));
  const perPoll = (us) => Number((us / Math.max(1, r.requests.total)).toFixed(1));
  return {
    polls_per_s: Math.round(r.requests.average),
    api_cpu_us: perPoll(apiBusy),
    nginx_cpu_us: perPoll(Object.entries(cpu).reduce((s, [k, v]) => (k.startsWith('w') ? s + v : s), 0)),
    non_2xx: r.non2xx,
  };
}

async function main() {
  const at = new Date().toISOString();
  const bench = await openBench('seatpolls');
  let nginx;
  try {
    const [session] = await seedTour(bench.deps, { sessions: 1, seatsPerSession: SEATS, zoneCapacity: 10 });
    console.log('measuring the Koa hello-world ceiling ...');
    const hello = await helloCeiling({ connections: CONNECTIONS, seconds: smoke ? 2 : 5 });
    const server = await bench.startServer();
    nginx = await nginxInFront(new URL(bench.url).host);
    const full = await (await fetch(`${bench.url}/api/v1/sessions/${session.id}/seat-states`)).json();
    const pollPath = `/api/v1/sessions/${session.id}/seat-states?since=${full.version}`;
    await fetch(nginx.url + pollPath);
    const cacheStatus = (await fetch(nginx.url + pollPath)).headers.get('x-cache-status');
    const pids = { api: server.child.pid, ...Object.fromEntries(nginx.workers.map((p, i) => [`w${i}`, p])) };
    const apiIdleUsPerMs = await idleCpuUsPerMs(server.child.pid, 2000);
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) {
      // Alternated: on this shared machine two runs one after the other differ by more than a little.
      const direct = await pollRun(bench.url, pollPath, pids, apiIdleUsPerMs);
      const viaNginx = await pollRun(nginx.url, pollPath, pids, apiIdleUsPerMs);
      console.log(`round ${i + 1}: direct ${JSON.stringify(direct)}; nginx ${JSON.stringify(viaNginx)}`);
      rounds.push({ direct, nginx: viaNginx });
    }
    // The rounds' mean of each figure (rounds keeps each one).
    const m = (side, k) => mean(rounds.map((r) => r[side][k]));
    const result = {
      scenario: 'seat-polls',
      seats: SEATS,
      connections: CONNECTIONS,
      seconds: SECONDS,
      second_poll_cache_status: cacheStatus,
      hello_rps: Math.round(hello.rps),
      direct_polls_per_s: Math.round(m('direct', 'polls_per_s')),
      nginx_polls_per_s: Math.round(m('nginx', 'polls_per_s')),
      direct_ratio: Number((m('direct', 'polls_per_s') / hello.rps).toFixed(3)),
      nginx_ratio: Number((m('nginx', 'polls_per_s') / hello.rps).toFixed(3)),
      api_cpu_us_per_poll_direct: m('direct', 'api_cpu_us'),
      api_cpu_us_per_poll_nginx: m('nginx', 'api_cpu_us'),
      nginx_cpu_us_per_poll: m('nginx', 'nginx_cpu_us'),
      // the API's CPU with nothing sent (its jobs), per second; taken out of its figures above
      api_idle_cpu_us_per_s: Math.round(apiIdleUsPerMs * 1000),
      non_2xx: rounds.reduce((s, r) => s + r.direct.non_2xx + r.nginx.non_2xx, 0),
      rounds,
      at,
    };
    report(result, { save: !smoke, at });
    if (result.non_2xx || cacheStatus !== 'HIT') process.exitCode = 1;
    await server.stop();
  } finally {
    await nginx?.close();
    await bench.close();
  }
}

runMain(main);
