#!/usr/bin/env node
/**
 * Every client test, in order: type check, both Taro builds (they must compile; the weapp one
 * within WeChat's package budget), component
 * tests (jest + jsdom), compiled mini-program pages (miniprogram-simulate on dist/weapp),
 * browser tests of the H5 build against the real server (headless Chromium), and the
 * miniprogram-automator suite (skipped, saying so, without WeChat DevTools).
 * Runs all steps, prints a summary (skipped steps as SKIPPED with the reason), exits non-zero if
 * any failed. Arguments filter steps by name, as the root `npm test` does.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitCode, runSteps, selectSteps, summary } from '../../scripts/steps.mjs';

const client = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(client, '..');
const jest = path.join(root, 'node_modules/jest/bin/jest.js');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

const steps = [
  ['type check', process.execPath, [tsc, '-p', 'tsconfig.json']],
  ['build weapp', process.execPath, ['scripts/taro-build.mjs', 'weapp']],
  // WeChat's size limits (main package < 2 MB, all < 20 MB), staff code in its sub-package,
  // release settings: scripts/weapp-check.cjs on the build just made.
  ['weapp package budget', process.execPath, ['scripts/weapp-check.cjs']],
  ['build h5', process.execPath, ['scripts/taro-build.mjs', 'h5']],
  ['component tests', process.execPath, [jest, '--config', 'jest.config.js']],
  ['mini-program pages (dist/weapp)', process.execPath, [jest, '--config', 'jest.weapp.config.js']],
  [
    'browser tests (H5 + real server)',
    process.execPath,
    [
      '--test',
      '--test-concurrency=1',
      // A hung page or service fails its test instead of the run; a handle left open after the
      // hooks cannot keep the runner waiting.
      '--test-timeout=180000',
      '--test-force-exit',
      'test/browser/',
    ],
  ],
  ['miniprogram-automator', process.execPath, ['test/automator/run.mjs']],
];

const results = runSteps(selectSteps(steps, process.argv.slice(2), 'client tests'), {
  cwd: client,
  banner: (name) => `\n=== ${name} ===`,
  // This run's screenshots only (test-artifacts/client/*.png, one set per browser run).
  before: (name) =>
    name.startsWith('browser') &&
    rmSync(path.join(root, 'test-artifacts/client'), { recursive: true, force: true }),
});
console.log('\n=== client test summary ===');
for (const line of summary(results)) console.log(line);
process.exit(exitCode(results));
