#!/usr/bin/env node
/**
 * Builds the client for one platform (weapp or h5) with Taro, run from the repo root because
 * Taro reads `config/`, `babel.config.js` and `project.config.json` from its working directory.
 * Builds shared-types first when its dist is missing (the client bundles it). The H5 build gets
 * brotli and gzip copies of its assets beside them (scripts/precompress.mjs).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const platform = process.argv[2];
if (platform !== 'weapp' && platform !== 'h5') {
  console.error('usage: taro-build.mjs weapp|h5');
  process.exit(2);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);

function run(cmd, args) {
  const r = spawnSync(cmd, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV || 'production' },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (!existsSync(path.join(root, 'shared-types/dist/index.js'))) {
  run('npm', ['run', 'build', '-w', 'shared-types']);
}
const taroBin = path.join(path.dirname(require.resolve('@tarojs/cli/package.json')), 'bin', 'taro');
run(process.execPath, [taroBin, 'build', '--type', platform]);
// The H5 build's scripts and styles sent compressed by the server (scripts/precompress.mjs).
if (platform === 'h5')
  run(process.execPath, [path.join(root, 'scripts/precompress.mjs'), path.join(root, 'dist/h5')]);
