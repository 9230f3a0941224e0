// scripts/lib/free-port.js: the one free-port chooser of the scripts, the benches and the server's
// suites. A port found with listen(0) and closed lies in the kernel's ephemeral range, where any
// outgoing connection may take it before the process told to listen on it does; this one draws
// outside that range.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ephemeralRange, freePort, portFree } from '../lib/free-port.js';

const listening = (port) =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => resolve(s));
  });
const closed = (s) => new Promise((r) => s.close(r));

test('a drawn port lies outside the ephemeral range and can be listened on', async () => {
  const range = [32768, 60999];
  for (let i = 0; i < 20; i++) {
    const port = await freePort(range);
    assert.ok(port >= 10_000 && port <= 65_535, `port ${port}`);
    assert.ok(port < range[0] || port > range[1], `port ${port} in the ephemeral range`);
    const s = await listening(port);
    await closed(s);
  }
});

test('a range that leaves nothing outside gives the system choice', async () => {
  const port = await freePort([1024, 65535]);
  assert.ok(port > 0);
  await closed(await listening(port));
});

test('a port someone listens on is not free, and is again once closed', async () => {
  const s = await listening(0);
  const { port } = s.address();
  try {
    assert.equal(await portFree(port), false);
  } finally {
    await closed(s);
  }
  assert.equal(await portFree(port), true);
});

test("the kernel's range is read, and a file that does not hold one gives none", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'free-port-'));
  try {
    const file = path.join(dir, 'range');
    writeFileSync(file, '40000\t50000\n');
    assert.deepEqual(ephemeralRange(file), [40000, 50000]);
    writeFileSync(file, 'nonsense');
    assert.equal(ephemeralRange(file), undefined);
    assert.equal(ephemeralRange(path.join(dir, 'absent')), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
