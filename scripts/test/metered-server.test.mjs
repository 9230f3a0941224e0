// bench/process.mjs meteredServer: the hello-world's and the raw server's measurement, against a
// small node:http server it starts itself: warmed up then loaded, metered, and always stopped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { meteredServer } from '../../bench/process.mjs';
import { alive } from '../lib/alive.mjs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'metered-'));
const script = path.join(dir, 'server.mjs');
writeFileSync(
  script,
  "import http from 'node:http';\n" +
    "http.createServer((req, res) => res.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');\n",
);
// The same server, listening only after 800 ms (a busy machine's slow start).
const slowScript = path.join(dir, 'slow.mjs');
writeFileSync(
  slowScript,
  "import http from 'node:http';\n" +
    "setTimeout(() => http.createServer((req, res) => res.end('ok')).listen(Number(process.env.PORT), '127.0.0.1'), 800);\n",
);
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** Waits for a stopped child to be gone (stop resolves on its exit, but the kernel may lag a little). */
async function gone(pid) {
  for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
  return !alive(pid);
}

/** `seconds` of GETs one after another: the requests answered. */
async function load(url, seconds) {
  const until = performance.now() + seconds * 100; // tenths of the seconds asked: a short test
  let requests = 0;
  while (performance.now() < until) {
    assert.equal(await (await fetch(url)).text(), 'ok');
    requests++;
  }
  return { requests };
}

test('waits for it to answer, warms up, loads, meters the server and this process, reads its own counter around the load, then stops it', async () => {
  const calls = [];
  let pid;
  const m = await meteredServer({
    script,
    seconds: 2,
    load: async (url, s) => {
      calls.push(s);
      return load(url, s);
    },
    loadgen: true,
    around: (p) => {
      pid = p;
      return () => 'read after';
    },
  });
  assert.deepEqual(calls, [1, 2], 'a 1 s warm-up, then the measured load');
  assert.ok(m.result.requests > 0);
  assert.ok(m.cpu.server > 0 && m.cpu.loadgen > 0, JSON.stringify(m.cpu));
  assert.ok(m.kernel.server >= 0 && m.kernel.server <= m.cpu.server, JSON.stringify(m));
  assert.equal(m.extra, 'read after');
  assert.ok(await gone(pid), 'the server is stopped');
});

test('a load that throws still stops the server, and the error reaches the caller', async () => {
  let pid;
  await assert.rejects(
    meteredServer({
      script,
      seconds: 2,
      load: async (url, s) => {
        if (s === 1) return load(url, s);
        throw new Error('load failed');
      },
      around: (p) => {
        pid = p;
        return () => undefined;
      },
    }),
    /load failed/,
  );
  assert.ok(await gone(pid), 'the server is stopped');
});

test('a server slow to start listening is waited for, not loaded before it listens', async () => {
  const m = await meteredServer({ script: slowScript, seconds: 1, load });
  assert.ok(m.result.requests > 0);
});
