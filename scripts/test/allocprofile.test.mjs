// bench/allocprofile.mjs and bench/alloc-sampling.cjs: the summary of a sampling heap profile, on
// one written by hand (exact figures) and on one the sampler wrote for a process that allocates
// in one known function between its two SIGUSR2s, objects the GC had freed included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarizeAlloc } from '../../bench/allocprofile.mjs';

const sampler = fileURLToPath(new URL('../../bench/alloc-sampling.cjs', import.meta.url));

const node = (functionName, url, selfSize, children = []) => ({
  callFrame: { functionName, url, lineNumber: 9, columnNumber: 0, scriptId: '0' },
  selfSize,
  children,
});

/** root -> handle (server, 3,000 B) -> send (ioredis, 1,000 B); root -> (V8 API) 1,000 B. */
const profile = {
  head: node('(root)', '', 0, [
    node('handle', 'file:///app/server/dist/orders/routes.js', 3000, [
      node('send', 'file:///app/node_modules/ioredis/built/Redis.js', 1000),
    ]),
    node('(V8 API)', '', 1000),
  ]),
};

test('bytes per request, by function, by place and in the tree', () => {
  const s = summarizeAlloc(profile, { requests: 10, treeMinPct: 0 });
  assert.equal(s.bytes, 500);
  assert.deepEqual(s.functions, [
    { name: 'handle routes.js:10', bytes: 300, pct: 60 },
    { name: 'send Redis.js:10', bytes: 100, pct: 20 },
    { name: '(V8 API)', bytes: 100, pct: 20 },
  ]);
  assert.deepEqual(
    s.places.map((p) => p.name),
    ['server:orders/routes.js', 'npm:ioredis', '(V8 API)'],
  );
  assert.deepEqual(s.tree, [
    { depth: 0, name: 'handle routes.js:10', pct: 80 },
    { depth: 1, name: 'send Redis.js:10', pct: 20 },
    { depth: 0, name: '(V8 API)', pct: 20 },
  ]);
  // Without a request count: the profile's own bytes.
  assert.equal(summarizeAlloc(profile).bytes, 5000);
});

test('the sampler: what a process allocated between two SIGUSR2s, freed objects too', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'allocprofile-'));
  try {
    // About 40 MB in short-lived objects, none of it held at the end: a profile of live objects
    // only would find almost nothing.
    const code = `
      const fs = require('node:fs');
      const marker = ${JSON.stringify(path.join(dir, `alloc-PID.sampling`))}.replace('PID', process.pid);
      function allocateMuch() { let keep = 0; for (let i = 0; i < 400000; i++) keep += [i, { i, s: 'x' + i }].length; return keep; }
      process.kill(process.pid, 'SIGUSR2');
      const wait = () => fs.existsSync(marker) ? (allocateMuch(), process.kill(process.pid, 'SIGUSR2'), setTimeout(() => {}, 300)) : setTimeout(wait, 10);
      wait();`;
    const r = spawnSync(process.execPath, ['--require', sampler, '-e', code], {
      env: { ...process.env, BENCH_ALLOC_DIR: dir },
      timeout: 30_000,
    });
    assert.equal(r.status, 0, String(r.stderr));
    const files = readdirSync(dir);
    assert.equal(files.filter((f) => f.endsWith('.heapprofile')).length, 1, files.join(','));
    assert.ok(!files.some((f) => f.endsWith('.sampling') || f.endsWith('.part')), files.join(','));
    const file = files.find((f) => f.endsWith('.heapprofile'));
    const s = summarizeAlloc(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
    const much = s.functions.find((f) => f.name.startsWith('allocateMuch'));
    assert.ok(much && much.pct > 50, JSON.stringify(s.functions.slice(0, 5)));
    assert.ok(much.bytes > 10e6, `sampled ${much.bytes} bytes`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the sampler does nothing without BENCH_ALLOC_DIR (the signal keeps its default)', () => {
  const r = spawnSync(
    process.execPath,
    ['--require', sampler, '-e', 'process.kill(process.pid, "SIGUSR2")'],
    {
      env: { ...process.env, BENCH_ALLOC_DIR: '' },
      timeout: 30_000,
    },
  );
  assert.equal(r.signal, 'SIGUSR2');
});
