// Helpers for the root scripts. Node built-ins only: these run on a fresh clone before
// `npm ci` has installed anything.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';

export const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

/**
 * The Node.js flags every server process is started with (server/src/runtime-flags.ts), read from
 * the server's build: call it after `npm run build -w server`.
 */
export function serverNodeFlags() {
  return createRequire(import.meta.url)(`${root}/server/dist/runtime-flags.js`).SERVER_NODE_FLAGS;
}

export function run(cmd, opts = {}) {
  console.log(`$ ${cmd}`);
  execSync(cmd, { stdio: 'inherit', cwd: root, ...opts });
}

export function tryRun(cmd) {
  return spawnSync('sh', ['-c', cmd], { stdio: 'ignore' }).status === 0;
}

export function portOpen(port, host = '127.0.0.1', timeoutMs = 1000) {
  return new Promise((resolve) => {
    const s = connect(port, host);
    const done = (ok) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

export async function waitPort(port, name, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  while (!(await portOpen(port))) {
    if (Date.now() > end) throw new Error(`${name} did not come up on port ${port}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Installs npm dependencies when node_modules is missing or older than package-lock.json. */
export function ensureInstall() {
  const marker = `${root}/node_modules/.package-lock.json`;
  const lock = `${root}/package-lock.json`;
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('installing npm dependencies (npm ci) ...');
  run('npm ci --no-audit --no-fund');
}
