// scripts/lib/answering.js answersWithin: the one wait for a started server (the benches,
// the chaos stack, scripts/cluster.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { answersWithin } from '../lib/answering.js';
import { freePort } from '../lib/free-port.js';

const close = (s) => new Promise((r) => s.close(r));

test('a server that starts listening late is waited for', async () => {
  const port = await freePort();
  const s = http.createServer((req, res) => res.end('ok'));
  const late = setTimeout(() => s.listen(port, '127.0.0.1'), 300);
  try {
    assert.equal(await answersWithin(`http://127.0.0.1:${port}/`, 5_000, 50), true);
  } finally {
    clearTimeout(late);
    await close(s);
  }
});

test('a server that answers only errors, or none listening, is not answering once the time is up', async () => {
  const s = http.createServer((req, res) => {
    res.statusCode = 503;
    res.end();
  });
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  try {
    const t0 = Date.now();
    assert.equal(await answersWithin(`http://127.0.0.1:${s.address().port}/`, 300, 50), false);
    assert.ok(Date.now() - t0 >= 300);
  } finally {
    await close(s);
  }
  assert.equal(await answersWithin(`http://127.0.0.1:${await freePort()}/`, 200, 50), false);
});
