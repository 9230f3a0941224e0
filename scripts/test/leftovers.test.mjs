// npm test's last step: what a run left behind (databases, Redis prefixes, temporary folders,
// processes) is found, and what was there before the run is not counted.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { leftovers, leftoverStep, mysqlCli, serviceUrls, snapshot } from '../lib/leftovers.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const tag = `leftover_probe_${randomBytes(4).toString('hex')}`;
// The services the snapshot reads: the same URLs, so what is planted is where it looks.
const { mysqlUrl, redisUrl } = serviceUrls();
const cli = mysqlCli(mysqlUrl);
const mysql = (sql) =>
  execFileSync('mysql', [...cli.args, '-e', sql], { env: { ...process.env, ...cli.env } });
const redis = (...args) => execFileSync('redis-cli', ['-u', redisUrl, ...args]);

test('counts only what is new, and says which parts it could not read', () => {
  const before = {
    'MySQL databases': { part: 'MySQL databases', items: ['mysql', 'showtix'] },
    processes: { part: 'processes', unchecked: 'tool not found' },
  };
  const after = {
    'MySQL databases': { part: 'MySQL databases', items: ['mysql', 'showtix', 'tk_test_1'] },
    processes: { part: 'processes', items: ['12 nginx'] },
    'RabbitMQ queues': { part: 'RabbitMQ queues', items: ['q'] },
  };
  assert.deepEqual(leftovers(before, after), {
    left: [{ part: 'MySQL databases', item: 'tk_test_1' }],
    unchecked: [
      { part: 'processes', why: 'tool not found' },
      { part: 'RabbitMQ queues', why: 'not read before the run' },
    ],
  });
});

test('finds a database, a Redis prefix, a temporary folder and a process the run left, and passes once they are gone', async () => {
  const before = snapshot({ root });
  const folder = mkdtempSync(path.join(tmpdir(), `showtix-${tag}-`));
  mysql(`CREATE DATABASE ${tag}`);
  redis('set', `${tag}:{s:1}:meta`, '1');
  // A process started from the repository and not stopped, as a forgotten test server would be.
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', path.join(root, tag)], {
    stdio: 'ignore',
  });
  try {
    const { left } = leftovers(before, snapshot({ root }));
    const mine = left.filter((l) => l.item.includes(tag)).map((l) => l.part);
    assert.deepEqual(mine.sort(), [
      'MySQL databases',
      'Redis key prefixes',
      'processes',
      'temporary folders',
    ]);
    const said = [];
    const failed = await leftoverStep(before, { root, graceMs: 10, log: (l) => said.push(l) });
    assert.equal(failed.status, 'FAIL');
    assert.ok(said.some((l) => l.startsWith('left behind: MySQL databases: ') && l.includes(tag)));
  } finally {
    child.kill('SIGKILL');
    await new Promise((r) => (child.exitCode !== null || child.signalCode ? r() : child.once('exit', r)));
    rmSync(folder, { recursive: true, force: true });
    mysql(`DROP DATABASE IF EXISTS ${tag}`);
    redis('del', `${tag}:{s:1}:meta`);
  }
  const { left } = leftovers(before, snapshot({ root }));
  assert.deepEqual(
    left.filter((l) => l.item.includes(tag)),
    [],
  );
});
