import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { DIST_H5, DIST_WEAPP, ROOT } from './paths.mjs';

function run(args, what, { quiet = false } = {}) {
  const r = spawnSync('npm', args, {
    cwd: ROOT,
    stdio: quiet ? 'pipe' : ['ignore', 'inherit', 'inherit'],
    env: process.env,
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    const err = new Error(`${what} failed (npm ${args.join(' ')})`);
    err.output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
    throw err;
  }
}

function newestMtime(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function stale(pkg, marker) {
  const out = path.join(ROOT, pkg, marker);
  if (!existsSync(out)) return true;
  return newestMtime(path.join(ROOT, pkg, 'src')) > statSync(out).mtimeMs;
}

/**
 * The server's compiled output (read-only use of the server package), rebuilt when missing or
 * older than its sources. A failing rebuild of someone's work in progress falls back to the
 * existing build when there is one.
 */
export function ensureServerBuilt({ force = false } = {}) {
  const missing =
    !existsSync(path.join(ROOT, 'server/dist/server.js')) ||
    !existsSync(path.join(ROOT, 'shared-types/dist/index.js'));
  if (!force && !missing && !stale('server', 'dist/server.js') && !stale('shared-types', 'dist/index.js'))
    return;
  try {
    run(['run', 'build', '-w', 'shared-types', '-w', 'server'], 'server build', { quiet: true });
  } catch (err) {
    if (missing) {
      console.error(err.output);
      throw err;
    }
    const first = (err.output ?? '').split('\n').find((l) => /error TS|Error:/.test(l)) ?? '';
    console.warn(`[harness] ${err.message}: ${first.trim()}; using the existing server/dist`);
  }
}

/** The simulator's compiled output, rebuilt when missing or older than its sources. */
export function ensureSimBuilt() {
  if (stale('wechat-sim', 'dist/index.js')) run(['run', 'build', '-w', 'wechat-sim'], 'simulator build');
}

/** The H5 build, rebuilt when missing or older than the client's sources. */
export function ensureH5Built({ force = false } = {}) {
  const index = path.join(DIST_H5, 'index.html');
  if (force || !existsSync(index) || newestMtime(path.join(ROOT, 'client/src')) > statSync(index).mtimeMs)
    run(['run', 'build:h5'], 'H5 build');
}

export function ensureWeappBuilt({ force = false } = {}) {
  if (force || !existsSync(path.join(DIST_WEAPP, 'app.js'))) run(['run', 'build:weapp'], 'weapp build');
}
