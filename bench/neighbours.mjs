// Busy neighbours: processes that spin on a core each for the whole of a run, as another tenant of
// a shared machine would, so that a benchmark can be measured on a loaded machine on purpose and
// rerun alike (`--neighbours N [--neighbours-nice K]`, `neighbours` in the JSON). Issue 14's
// overload target was missed in runs where the machine was busy with something else (load
// average 3.27 on 2026-12-07): this makes that state reproducible instead of waited for.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

/** Each neighbour's script: it spins until stopped, or until its starter has exited. */
const SPIN = fileURLToPath(new URL('./neighbour-spin.mjs', import.meta.url));

/** Refuses a count or a nice that is not one (before a bench creates anything). */
function check(count, nice) {
  if (!Number.isInteger(count) || count < 0) throw new Error(`--neighbours: a count, not ${count}`);
  if (!Number.isInteger(nice) || nice < 0 || nice > 19)
    throw new Error(`--neighbours-nice: 0-19, not ${nice}`);
}

/**
 * A bench's `--neighbours N --neighbours-nice K` as startNeighbours' arguments, checked: each a
 * whole number written out (a flag given without its value is refused, not taken as 1).
 */
export function neighbourArgs(args) {
  const given = [args.neighbours ?? '0', args['neighbours-nice'] ?? '0'];
  given.forEach((v, i) => {
    if (typeof v !== 'string' || !/^\d+$/.test(v))
      throw new Error(`${['--neighbours', '--neighbours-nice'][i]}: a whole number, not ${v}`);
  });
  const parsed = given.map(Number);
  check(...parsed);
  return parsed;
}

/**
 * Starts `count` neighbours at `nice` (0: the same priority as everything else; 19: the lowest,
 * a batch job's). Returns what the JSON records and stop(), which resolves once all have exited.
 */
export function startNeighbours(count, nice = 0) {
  check(count, nice);
  const children = [];
  try {
    for (let i = 0; i < count; i++) {
      const child = spawn(process.execPath, [SPIN, String(process.pid)], { stdio: 'ignore' });
      children.push(child);
      // No pid: it did not start. os.setPriority(undefined) would renice this process instead.
      if (child.pid === undefined) throw new Error('--neighbours: a busy loop did not start');
      if (nice) os.setPriority(child.pid, nice);
    }
  } catch (err) {
    // None of the loops started so far outlives the refusal.
    for (const c of children) c.kill('SIGKILL');
    throw err;
  }
  const stop = () =>
    Promise.all(
      children.map(
        (c) =>
          new Promise((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.kill('SIGKILL');
          }),
      ),
    );
  return { recorded: count ? { busy_loops: count, nice } : null, stop };
}
