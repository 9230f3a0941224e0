// What the benches' processes cost: CPU per process or thread from /proc, and the data stores'
// pids (bench/lib.mjs re-exports all of it).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * A process's (or thread's) CPU in µs from /proc/<pid>/stat: user and kernel time together, or
 * the kernel's part alone (`kernel`: its system calls, the socket writes and reads above all).
 */
function cpuMicros(pid, kernel = false) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const ticks = (kernel ? 0 : Number(fields[11])) + Number(fields[12]);
    return (ticks * 1_000_000) / 100; // clock ticks, USER_HZ = 100
  } catch {
    return 0;
  }
}

/** The pid of a running program by name (mariadbd, redis-server), or undefined. */
export function pidOf(name) {
  try {
    return Number(execFileSync('pidof', ['-s', name]).toString().trim()) || undefined;
  } catch {
    return undefined;
  }
}

/** The data stores' processes, for cpuMeter: MariaDB (or MySQL) and Redis. */
export const storePids = () => ({
  mysqld: pidOf('mariadbd') ?? pidOf('mysqld'),
  redis: pidOf('redis-server'),
});

/**
 * A process's main thread, for cpuMeter: the CPU of its event loop alone, without libuv's thread
 * pool (where the server signs WeChat Pay requests), the garbage collector's helpers or the JIT.
 */
export const mainThreadOf = (pid) => (pid ? `${pid}/task/${pid}` : undefined);

/**
 * CPU used by each process (or thread: mainThreadOf) between two calls: where a request's cost
 * goes. `kernel`: only the time spent in the kernel on their behalf.
 */
export function cpuMeter(pids, { kernel = false } = {}) {
  const now = (pid) => (pid ? cpuMicros(pid, kernel) : 0);
  const start = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, now(pid)]));
  return () => Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, now(pid) - start[k]]));
}

/**
 * A process's CPU with nothing sent to it, in µs per ms of wall time, measured over `ms`: what a
 * server's own jobs (expiry, outbox relay, admission tick, sweeps) burn. A bench takes it out of
 * the server's CPU over a phase (rate × the phase's length), as a hello-world has no jobs.
 * `pid` may be a list: their CPU together, measured over the same `ms`.
 */
export async function idleCpuUsPerMs(pid, ms) {
  const pids = [pid].flat();
  const meter = cpuMeter(Object.fromEntries(pids.map((p, i) => [i, p])));
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  const used = Object.values(meter()).reduce((a, b) => a + b, 0);
  return used / (performance.now() - t0);
}
