// bench/neighbours.mjs: the busy loops a bench can run beside itself (--neighbours), at the
// priority asked, recorded in the JSON, stopped with the run, and gone by themselves if the bench
// dies without stopping them (a test leaves no process behind).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { neighbourArgs, startNeighbours } from '../../bench/neighbours.mjs';
import { alive } from '../lib/alive.mjs';

/** Resolves once `pid` is gone; rejects after `ms`. */
async function gone(pid, ms) {
  for (const until = Date.now() + ms; Date.now() < until;) {
    if (!alive(pid)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`process ${pid} still running after ${ms} ms`);
}

test('--neighbours: a count from 0 and a nice of 0-19, else refused before anything starts', () => {
  for (const n of [-1, 1.5, NaN]) assert.throws(() => startNeighbours(n), /--neighbours: a count/);
  for (const k of [-1, 20, 0.5]) assert.throws(() => startNeighbours(1, k), /--neighbours-nice: 0-19/);
  assert.deepEqual(neighbourArgs({}), [0, 0]);
  assert.deepEqual(neighbourArgs({ neighbours: '3', 'neighbours-nice': '19' }), [3, 19]);
  assert.throws(() => neighbourArgs({ neighbours: 'two' }), /--neighbours: a whole number, not two/);
  assert.throws(() => neighbourArgs({ neighbours: true }), /--neighbours: a whole number, not true/);
  assert.throws(() => neighbourArgs({ neighbours: '2', 'neighbours-nice': '-5' }), /-nice: a whole number/);
  assert.throws(() => neighbourArgs({ neighbours: '2', 'neighbours-nice': '20' }), /0-19, not 20/);
  const none = startNeighbours(0);
  assert.equal(none.recorded, null);
  return none.stop();
});

test('two neighbours at nice 19: recorded, at that priority, stopped with the run', async () => {
  const before = new Set(childPids());
  const n = startNeighbours(2, 19);
  try {
    assert.deepEqual(n.recorded, { busy_loops: 2, nice: 19 });
    const started = childPids().filter((p) => !before.has(p));
    assert.equal(started.length, 2);
    for (const pid of started) assert.equal(os.getPriority(pid), 19);
    await n.stop();
    for (const pid of started) await gone(pid, 5_000);
  } finally {
    await n.stop();
  }
});

test('a neighbour exits by itself once the bench that started it is killed', async () => {
  // A stand-in bench: starts one neighbour, prints its pid, then waits to be killed.
  const module = fileURLToPath(new URL('../../bench/neighbours.mjs', import.meta.url));
  const code = `import(${JSON.stringify(module)}).then(({ startNeighbours }) => {
    startNeighbours(1);
    console.log(require('node:child_process').execFileSync('pgrep', ['-P', String(process.pid)]).toString().trim());
    setInterval(() => {}, 1000);
  });`;
  const bench = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = await new Promise((resolve, reject) => {
    bench.stdout.once('data', (d) => resolve(Number(String(d).trim())));
    bench.once('exit', () => reject(new Error('the stand-in bench exited first')));
  });
  assert.ok(pid > 0 && alive(pid));
  bench.kill('SIGKILL');
  await gone(pid, 10_000);
});

/** This process's children's pids (pgrep exits 1 when there are none). */
function childPids() {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}
