// npm test: every test of every workspace, against real MariaDB, Redis, RabbitMQ, the WeChat
// simulator and headless Chromium. Installs what is missing, starts services that are down,
// runs every step even when one fails, prints a summary and exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { ensureInstall, root, run } from './lib.mjs';
import { ensureServices } from './services.mjs';
import { ensureSystemPackages } from './system-packages.mjs';

const only = process.argv.slice(2);

const STEPS = [
  ['lint and format', 'npx eslint . && npx prettier --check .'],
  ['wechat simulator', 'npm test -w wechat-sim'],
  ['server', 'npx jest --ci', 'server'],
  ['server: Redis Cluster', 'npx jest --ci -c test/cluster/jest.config.js', 'server'],
  ['server: faults (one at a time)', 'npx jest --ci -c jest.serial.config.js', 'server'],
  ['admin page: components', 'npm test -w admin'],
  ['admin page: browser', 'npm run e2e -w admin'],
  ['mini-program', 'npm test -w client'],
];

ensureInstall();
await ensureServices();
ensureSystemPackages();
run('npm run build -w shared-types -w wechat-sim -w server');

const results = [];
for (const [name, cmd, cwd] of STEPS) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  console.log(`\n===== ${name}: ${cmd} =====`);
  const t0 = Date.now();
  const r = spawnSync('sh', ['-c', cmd], {
    cwd: cwd ? `${root}/${cwd}` : root,
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  results.push({ name, ok: r.status === 0, s: Math.round((Date.now() - t0) / 1000) });
}
console.log('\n===== summary =====');
for (const r of results) console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name}  (${r.s} s)`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
