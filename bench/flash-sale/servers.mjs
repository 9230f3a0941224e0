// --servers N of the flash-sale bench: N API processes of the sale on its one port.
import { execFileSync } from 'node:child_process';
import { cpuMeter } from '../lib.mjs';

/**
 * N API processes on the bench's one port (SO_REUSEPORT: LISTEN_SOCKETS=2 each, which needs
 * Node 22.12+ for the server, so BENCH_SERVER_NODE or `--node 24`), the first with the jobs
 * (ROLE=all), the rest ROLE=api; the kernel spreads the load generator's connections over their
 * sockets. With one it is the bench's usual server, started as before.
 */
export async function startServers(bench, n, pin) {
  checkServers(n);
  const envOf = (i) => (n === 1 ? {} : { LISTEN_SOCKETS: '2', ...(i > 0 ? { ROLE: 'api' } : {}) });
  const servers = [];
  for (let i = 0; i < n; i++) servers.push(await bench.startServer(pin, envOf(i)));
  // The first to answer /readyz does not say the others listen: their sockets are counted.
  if (n > 1) await listeningSockets(new URL(bench.url).port, 2 * n);
  return {
    pids: servers.map((s) => s.child.pid),
    /** Their CPU together from now (cpuMeter's `server`), or its kernel part. */
    meter: (opts) => {
      const meters = servers.map((s) => cpuMeter({ server: s.child.pid }, opts));
      return () => ({ server: meters.reduce((a, m) => a + m().server, 0) });
    },
    async stop() {
      for (const s of servers) await s.stop();
    },
  };
}

/** Refuses a --servers this run cannot start, before the bench seeds anything. */
export function checkServers(n) {
  if (!(Number.isInteger(n) && n >= 1)) throw new Error(`--servers: a whole number from 1, not ${n}`);
  if (n > 1 && !process.env.BENCH_SERVER_NODE)
    throw new Error(
      '--servers past 1 needs SO_REUSEPORT (Node 22.12+): add --node 24 or set BENCH_SERVER_NODE',
    );
}

/**
 * Each session's seat map opened as fans waiting for an on-sale do, so that the instance has each
 * catalog when the sale opens; past one process, on a new connection each time, several times,
 * so that every process gets each catalog.
 */
export async function openSeatMaps(url, tour, n) {
  const times = n === 1 ? 1 : 4 * n;
  const init = n === 1 ? undefined : { headers: { connection: 'close' } };
  for (const t of tour)
    for (let i = 0; i < times; i++)
      await (await fetch(`${url}/api/v1/sessions/${t.id}/seatmap`, init)).arrayBuffer();
}

/** Waits until `n` sockets listen on `port` (ss, from iproute2). */
async function listeningSockets(port, n) {
  for (let tries = 0; ; tries++) {
    const out = execFileSync('ss', ['-Hltn', `sport = :${port}`])
      .toString()
      .trim();
    const count = out ? out.split('\n').length : 0;
    if (count >= n) return;
    if (tries > 600) throw new Error(`--servers: ${count} of ${n} sockets listen on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
