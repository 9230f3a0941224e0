// scripts/lib/nginx.js layOut: nginx started as root runs its workers as nobody, and a folder
// above the prefix they cannot enter failed every read of the catalog's micro-cache with a 500
// (scripts/cluster.mjs kept its nginx prefix inside a mkdtemp folder, 0700).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clusterSite, layOut, workersReach } from '../lib/nginx.js';

const isRoot = process.getuid?.() === 0;

function nested() {
  const outer = mkdtempSync(path.join(os.tmpdir(), 'nginx-layout-')); // 0700
  const prefix = path.join(outer, 'nginx');
  mkdirSync(prefix);
  return { outer, prefix, done: () => rmSync(outer, { recursive: true, force: true }) };
}

test('a folder above the prefix that nobody can enter is refused, naming it', () => {
  const { outer, prefix, done } = nested();
  try {
    assert.throws(() => workersReach(prefix, true), new RegExp(`cannot enter ${outer}`));
    assert.doesNotThrow(() => workersReach(prefix, false)); // not root: the workers are this user
    chmodSync(outer, 0o755);
    assert.doesNotThrow(() => workersReach(prefix, true));
  } finally {
    done();
  }
});

test('layOut refuses such a prefix when nginx would run as root', { skip: !isRoot && 'not root' }, () => {
  const { outer, prefix, done } = nested();
  try {
    const site = clusterSite(8080, ['127.0.0.1:8081']);
    assert.throws(() => layOut(prefix, site, 64), /cannot enter/);
    chmodSync(outer, 0o755);
    assert.ok(layOut(prefix, site, 64).length > 0);
  } finally {
    done();
  }
});
