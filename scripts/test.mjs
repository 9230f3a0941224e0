// npm test: every test of every workspace, against real MariaDB, Redis, RabbitMQ, the WeChat
// simulator and headless Chromium. Installs what is missing, starts services that are down,
// runs every step even when one fails, prints a summary and exits non-zero on any failure.
// `npm test -- <words>` runs the steps whose name contains one of them; a word that matches no
// step stops the run with the list of names. Skipped steps (and skipped parts of a step, such as
// the client's miniprogram-automator suite without WeChat DevTools) show as SKIPPED with why.
import { leftoverStep, snapshot } from './lib/leftovers.mjs';
import { ensureInstall, root, run } from './lib.mjs';
import { ensureServices } from './services.mjs';
import { exitCode, runSteps, selectSteps, summary } from './steps.mjs';
import { ensureSystemPackages } from './system-packages.mjs';

const only = process.argv.slice(2);

const TIME_TESTS = [
  'orders.api',
  'expiry',
  'payments',
  'refunds',
  'reconcile',
  'queue',
  'fair-access',
  'checkin',
  'admin/orders',
  'transfers',
  'exchanges',
]
  .map((f) => `test/${f}`)
  .join(' ');

const ARCH_DIRS = 'server/src shared-types/src admin/src client/src wechat-sim/src';

const STEPS = [
  // Lint includes the architecture (.dependency-cruiser.cjs: layers, never-imports, no cycles).
  [
    'lint and format',
    `npx eslint . && npx prettier --check . && npx depcruise ${ARCH_DIRS} --output-type err`,
  ],
  // Every workspace and every test folder, type-checked (the client's step checks its own).
  [
    'type check',
    'npx tsc -p shared-types/tsconfig.json --noEmit && npx tsc -p server/tsconfig.json && ' +
      'npx tsc -p wechat-sim/tsconfig.test.json && npx tsc -p admin/tsconfig.json',
  ],
  ['test runner', 'node --test scripts/test/'],
  ['wechat simulator', 'npm test -w wechat-sim'],
  ['server', 'npx jest --ci', 'server'],
  // Every stored time is UTC whatever TZ the process has: the suites that store and compare
  // times (orders, expiry, payments, refunds, reconciliation, queue, check-in, admin orders,
  // transfers and their cutoff)
  // again under China's offset and under a negative one.
  ['server under TZ=Asia/Shanghai', `TZ=Asia/Shanghai npx jest --ci ${TIME_TESTS}`, 'server'],
  ['server under TZ=America/Los_Angeles', `TZ=America/Los_Angeles npx jest --ci ${TIME_TESTS}`, 'server'],
  ['server: Redis Cluster', 'npx jest --ci -c test/cluster/jest.config.js', 'server'],
  // Node.js 24 LTS (from the npm registry into .data/node24, kept for later runs): native modules
  // load, then the money path, the Lua scripts, a worker's metrics and Argon2 logins under 24.
  ['server under Node 24', 'node scripts/node24.mjs test'],
  // Alert rules, unit-tested against synthetic series; the config Prometheus runs with (a live
  // Prometheus is started by scripts/test/prometheus.test.mjs in the test runner step).
  [
    'monitoring: alert rules (promtool)',
    'promtool check rules deploy/prometheus/alerts.yml && promtool check config deploy/prometheus/prometheus.yml && promtool test rules deploy/prometheus/alerts.test.yml',
  ],
  // Reads on a private MariaDB primary + GTID replica: routing, lag fallback, replica restarts.
  ['server: MySQL replica', 'npx jest --ci -c test/replica/jest.config.js', 'server'],
  ['server: faults (one at a time)', 'npx jest --ci -c jest.serial.config.js', 'server'],
  // The money path under chaos (issue 10), small: 2 API + 1 worker processes, ~200 buyers, a few
  // faults, self-heal, audit; its own database, redis-server and queues. A fixed seed in CI (the
  // choices repeat; fault timing still varies); `npm run chaos` draws a new one each run.
  ['chaos (small)', 'node bench/chaos/run.mjs --small --seed 424242'],
  ['admin page: components', 'npm test -w admin'],
  ['admin page: browser', 'npm run e2e -w admin'],
  ['mini-program', 'npm test -w client'],
];

// Before anything is installed or started: a mistyped filter fails at once.
const selected = selectSteps(STEPS, only, 'npm test');

ensureInstall();
await ensureServices();
ensureSystemPackages();
run('npm run build -w shared-types -w wechat-sim -w server');

// What is on the machine before the steps: whatever a step adds and leaves fails the run.
const before = snapshot({ root });
const results = runSteps(
  selected.map(([name, cmd, cwd]) => [name, 'sh', ['-c', cmd], cwd ? `${root}/${cwd}` : root]),
  { cwd: root, banner: (name) => `\n===== ${name}: ${STEPS.find(([n]) => n === name)[1]} =====` },
);
console.log(
  '\n===== nothing left behind: databases, Redis prefixes, queues, temporary folders, processes =====',
);
results.push(await leftoverStep(before, { root }));
console.log('\n===== summary =====');
for (const line of summary(results)) console.log(line);
process.exit(exitCode(results));
