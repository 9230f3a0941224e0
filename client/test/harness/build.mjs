import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DIST_H5, DIST_WEAPP, ROOT } from './paths.mjs';

function run(args, what) {
  const r = spawnSync('npm', args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], env: process.env });
  if (r.status !== 0) throw new Error(`${what} failed (npm ${args.join(' ')})`);
}

/** The server's compiled output (read-only use of the server package). */
export function ensureServerBuilt({ force = false } = {}) {
  const built = existsSync(path.join(ROOT, 'server/dist/server.js')) && existsSync(path.join(ROOT, 'shared-types/dist/index.js'));
  if (force || !built) run(['run', 'build', '-w', 'shared-types', '-w', 'server'], 'server build');
}

export function ensureSimBuilt() {
  if (!existsSync(path.join(ROOT, 'wechat-sim/dist/index.js'))) run(['run', 'build', '-w', 'wechat-sim'], 'simulator build');
}

export function ensureH5Built({ force = false } = {}) {
  if (force || !existsSync(path.join(DIST_H5, 'index.html'))) run(['run', 'build:h5'], 'H5 build');
}

export function ensureWeappBuilt({ force = false } = {}) {
  if (force || !existsSync(path.join(DIST_WEAPP, 'app.js'))) run(['run', 'build:weapp'], 'weapp build');
}
