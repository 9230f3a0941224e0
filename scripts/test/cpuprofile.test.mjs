// bench/cpuprofile.mjs: the summary of a V8 CPU profile, on one written by hand (exact figures)
// and on one V8 itself wrote for a process that spends its time in one known function.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { placeOf, summarize } from '../../bench/cpuprofile.mjs';

const frame = (functionName, url = '', lineNumber = 0) => ({
  functionName,
  url,
  lineNumber,
  columnNumber: 0,
  scriptId: '0',
});

/**
 * root -> handle (server) -> send (ioredis), and the loop's idle and GC beside them. Samples
 * (µs): idle 4,000; handle 3,000 self; send 1,000; GC 1,000, the GC sample last, at 9,000 µs.
 */
const profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 4, 5] },
    { id: 2, callFrame: frame('handle', 'file:///app/server/dist/orders/routes.js', 46), children: [3] },
    { id: 3, callFrame: frame('send', 'file:///app/node_modules/ioredis/built/Redis.js', 10), children: [] },
    { id: 4, callFrame: frame('(idle)'), children: [] },
    { id: 5, callFrame: frame('(garbage collector)'), children: [] },
  ],
  samples: [4, 2, 3, 2, 4, 5],
  timeDeltas: [2000, 1000, 1000, 2000, 2000, 1000],
  startTime: 0,
  endTime: 9000,
};

test('shares are of busy time; functions, places and the tree agree', () => {
  const s = summarize(profile, { treeMinPct: 0 });
  assert.equal(s.busyMs, 5);
  assert.equal(s.idleMs, 4);
  assert.deepEqual(s.functions, [
    { name: 'handle routes.js:47', pct: 60 },
    { name: 'send Redis.js:11', pct: 20 },
    { name: '(garbage collector)', pct: 20 },
  ]);
  assert.deepEqual(
    s.places.map((p) => p.name),
    ['server:orders/routes.js', 'npm:ioredis', '(garbage collector)'],
  );
  assert.deepEqual(s.tree, [
    { depth: 0, name: 'handle routes.js:47', pct: 80, selfPct: 60 },
    { depth: 1, name: 'send Redis.js:11', pct: 20, selfPct: 20 },
    { depth: 0, name: '(garbage collector)', pct: 20, selfPct: 20 },
  ]); // the loop's idle time is not in the tree
});

test('a window keeps only the samples whose time falls in it', () => {
  // Samples at 2, 3, 4, 6, 8, 9 ms: [3, 8) keeps handle (3, 6 ms: 3,000 µs), send (4 ms) and idle (8 ms is out).
  const s = summarize(profile, { fromMs: 3, toMs: 8 });
  assert.equal(s.busyMs, 4);
  assert.equal(s.idleMs, 0);
  assert.deepEqual(s.functions[0], { name: 'handle routes.js:47', pct: 75 });
});

test('places: scoped npm packages, node modules, server files', () => {
  assert.equal(placeOf(frame('f', 'file:///r/node_modules/@koa/router/lib/router.js')), 'npm:@koa/router');
  assert.equal(placeOf(frame('f', 'node:internal/streams/writable')), 'node:internal/streams/writable');
  assert.equal(placeOf(frame('f', 'file:///r/server/dist/http/lean.js')), 'server:http/lean.js');
  assert.equal(placeOf(frame('writev')), 'writev');
});

test("a profile V8 wrote: the process's busy function comes first", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cpuprofile-'));
  try {
    const code =
      'function spinForAWhile(ms) { const end = Date.now() + ms; let x = 0; while (Date.now() < end) x += Math.sqrt(x + 1); return x; }\n' +
      'spinForAWhile(400);';
    const r = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, '-e', code]);
    assert.equal(r.status, 0, String(r.stderr));
    const [file] = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
    const s = summarize(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
    assert.ok(s.busyMs >= 300, `busy ${s.busyMs} ms`);
    const spin = s.functions.find((f) => f.name.startsWith('spinForAWhile'));
    assert.ok(spin && spin.pct > 50, JSON.stringify(s.functions.slice(0, 5)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
