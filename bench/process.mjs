// The benches' child processes: a free port, a process pinned to a core, the servers' Node binary
// and its flags, a small server measured under load (bench/lib.mjs re-exports all of it).
import { execFileSync, spawn } from 'node:child_process';
import { answersWithin } from '../scripts/lib/answering.js';
import { freePort } from '../scripts/lib/free-port.js';
import { versionOf } from '../scripts/node24.mjs';
import { cpuMeter } from './cpu.mjs';

export { freePort };

const canPin = (() => {
  try {
    execFileSync('taskset', ['-c', '0', 'true']);
    return true;
  } catch {
    return false;
  }
})();

/** A child process, pinned to one core when asked (and possible). */
export function startProcess(cmd, argv, env, { pinCore } = {}) {
  const [c, a] =
    pinCore !== undefined && canPin ? ['taskset', ['-c', String(pinCore), cmd, ...argv]] : [cmd, argv];
  const child = spawn(c, a, { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  return {
    child,
    stop: () =>
      new Promise((resolve) => {
        // Stopped already (close() stops again what a run stopped itself), by exit or by signal.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

/**
 * BENCH_SERVER_NODE_ARGS as Node's arguments: split on spaces, empty pieces dropped (Node takes an
 * empty argument for the script's name and fails).
 */
export function benchNodeArgs(value = process.env.BENCH_SERVER_NODE_ARGS) {
  return (value ?? '').split(' ').filter(Boolean);
}

/** The Node binary the benchmarks' servers run on: BENCH_SERVER_NODE, else this one. */
export function serverNode() {
  return process.env.BENCH_SERVER_NODE ?? process.execPath;
}

const nodeVersions = new Map();
/** A Node binary's version (scripts/node24 versionOf), asked once per binary; by default the servers' one. */
export function nodeVersionOf(bin = serverNode()) {
  if (!nodeVersions.has(bin)) nodeVersions.set(bin, versionOf(bin) ?? `unknown (${bin} did not run)`);
  return nodeVersions.get(bin);
}

/**
 * Resolves once a GET of `url` is answered 2xx, asked every 100 ms for up to two minutes (on a
 * shared, saturated machine a server can take more than 30 s to start); throws after that.
 */
export async function waitAnswering(url) {
  if (!(await answersWithin(url, 120_000))) throw new Error(`${url} did not answer`);
}

/**
 * A small server measured under load: `script` started on the servers' Node with `nodeArgs` and
 * `env` (its PORT given), once it answers `/` (waitAnswering), `load(url, 1)` as a warm-up, then
 * `load(url, seconds)` while its CPU (all, and the kernel's part) is metered, and this load
 * generator's too when `loadgen`; stopped whatever happens. `around(pid)` reads a counter of its
 * own before the load and returns what reads it again after (`extra`). The hello-world ceiling
 * (hello-ceiling.mjs) and the raw node:http server (raw-http/measure.mjs) are measured by it.
 */
export async function meteredServer({
  script,
  nodeArgs = [],
  env = {},
  pinCore,
  seconds,
  load,
  loadgen = false,
  around,
}) {
  const port = await freePort();
  const server = startProcess(
    serverNode(),
    [...nodeArgs, script],
    { ...env, PORT: String(port) },
    { pinCore },
  );
  try {
    const url = `http://127.0.0.1:${port}/`;
    await waitAnswering(url);
    await load(url, 1); // warm-up
    const pid = server.child.pid;
    const meter = cpuMeter(loadgen ? { server: pid, loadgen: process.pid } : { server: pid });
    const kernelMeter = cpuMeter({ server: pid }, { kernel: true });
    const again = around?.(pid);
    const result = await load(url, seconds);
    return { result, cpu: meter(), kernel: kernelMeter(), extra: again?.() };
  } finally {
    await server.stop();
  }
}
