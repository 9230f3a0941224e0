#!/usr/bin/env node
/**
 * Checks the weapp build (dist/weapp) as WeChat will take it, after `npm run build:weapp`:
 *   - sizes: the main package under 2 MB, each sub-package under 2 MB, everything under 20 MB
 *     (WeChat refuses an upload over these; budgets can be tightened with --main/--total, in KB);
 *   - staff-only code (the gate's check-in and invite calls) only in the staff sub-package;
 *   - the release settings: lazyCodeLoading, the project config's AppID (TARO_APP_ID when set)
 *     and its upload settings (urlCheck, es6, enhance, minified).
 * Prints a table; exits 1 on any problem. `checkDist` is the testable core.
 */
const fs = require('node:fs');
const path = require('node:path');

const MB = 1024 * 1024;
const LIMITS = { mainBytes: 2 * MB, subBytes: 2 * MB, totalBytes: 20 * MB };
/** Strings only the gate's code contains: finding one in the main package means it leaked there. */
const STAFF_ONLY = ['/api/v1/checkin', '/api/v1/staff/invites'];
const RELEASE_SETTINGS = ['urlCheck', 'es6', 'enhance', 'minified'];

/** Files WeChat packs (tool configs and source maps are not part of the code package). */
function packedFiles(dir, root = dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return packedFiles(p, root);
    if (/^project(\.private)?\.config\.json$/.test(e.name) || e.name.endsWith('.map')) return [];
    return [{ rel: path.relative(root, p).split(path.sep).join('/'), bytes: fs.statSync(p).size, path: p }];
  });
}

function measure(dist) {
  const app = JSON.parse(fs.readFileSync(path.join(dist, 'app.json'), 'utf8'));
  const roots = (app.subPackages ?? app.subpackages ?? []).map((s) => s.root.replace(/\/?$/, '/'));
  const subs = Object.fromEntries(roots.map((r) => [r, 0]));
  const main = [];
  let total = 0;
  for (const f of packedFiles(dist)) {
    total += f.bytes;
    const root = roots.find((r) => f.rel.startsWith(r));
    if (root) subs[root] += f.bytes;
    else main.push(f);
  }
  return { app, main, mainBytes: main.reduce((s, f) => s + f.bytes, 0), subs, total };
}

/** Problems found in dist (empty: fine). limits override LIMITS; env is process.env. */
function checkDist(dist, limits = {}, env = process.env) {
  const lim = { ...LIMITS, ...limits };
  const m = measure(dist);
  const problems = [];
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  if (m.mainBytes >= lim.mainBytes) problems.push(`main package ${kb(m.mainBytes)} ≥ ${kb(lim.mainBytes)}`);
  for (const [root, bytes] of Object.entries(m.subs))
    if (bytes >= lim.subBytes) problems.push(`sub-package ${root} ${kb(bytes)} ≥ ${kb(lim.subBytes)}`);
  if (m.total >= lim.totalBytes) problems.push(`whole app ${kb(m.total)} ≥ ${kb(lim.totalBytes)}`);
  for (const f of m.main.filter((x) => /\.(js|json|wxml)$/.test(x.rel))) {
    const text = fs.readFileSync(f.path, 'utf8');
    for (const marker of STAFF_ONLY)
      if (text.includes(marker)) problems.push(`staff-only code (${marker}) in the main package: ${f.rel}`);
  }
  if (m.app.lazyCodeLoading !== 'requiredComponents')
    problems.push(
      `app.json lazyCodeLoading is ${JSON.stringify(m.app.lazyCodeLoading)}, not "requiredComponents"`,
    );
  const projectPath = path.join(dist, 'project.config.json');
  if (!fs.existsSync(projectPath)) problems.push('no project.config.json in the build');
  else {
    const project = JSON.parse(fs.readFileSync(projectPath, 'utf8'));
    if (env.TARO_APP_ID && project.appid !== env.TARO_APP_ID)
      problems.push(`project.config.json appid ${project.appid}, not TARO_APP_ID ${env.TARO_APP_ID}`);
    for (const key of RELEASE_SETTINGS)
      if (project.setting?.[key] !== true) problems.push(`project.config.json setting.${key} is not true`);
  }
  return { problems, measured: m };
}

function main() {
  const args = process.argv.slice(2);
  const opt = (name) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) * 1024 : undefined;
  };
  const dist = path.resolve(__dirname, '../../dist/weapp');
  if (!fs.existsSync(path.join(dist, 'app.json'))) {
    console.error(`no weapp build at ${dist}: run npm run build:weapp -w client first`);
    process.exit(1);
  }
  const limits = {};
  if (opt('main')) limits.mainBytes = opt('main');
  if (opt('total')) limits.totalBytes = opt('total');
  const { problems, measured: m } = checkDist(dist, limits);
  const kb = (n) => `${(n / 1024).toFixed(1).padStart(8)} KB`;
  console.log(`main package ${kb(m.mainBytes)}  (limit ${(limits.mainBytes ?? LIMITS.mainBytes) / 1024} KB)`);
  for (const [root, bytes] of Object.entries(m.subs)) console.log(`${root.padEnd(12)} ${kb(bytes)}`);
  console.log(`whole app    ${kb(m.total)}  (limit ${(limits.totalBytes ?? LIMITS.totalBytes) / 1024} KB)`);
  for (const p of problems) console.error(`FAIL ${p}`);
  process.exit(problems.length ? 1 : 0);
}

module.exports = { checkDist, measure, LIMITS, STAFF_ONLY };
if (require.main === module) main();
