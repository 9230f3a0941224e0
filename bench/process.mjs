// The benches' child processes: a free port, a process pinned to a core, the servers' Node binary
// and its flags (bench/lib.mjs re-exports all of it).
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { versionOf } from '../scripts/node24.mjs';

export function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

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
