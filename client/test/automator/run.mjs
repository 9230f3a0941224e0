#!/usr/bin/env node
/**
 * miniprogram-automator suite: drives the real mini-program in WeChat DevTools (Windows/macOS)
 * against the real back end (own database and Redis prefix) and the WeChat simulator. One stack,
 * one DevTools launch, three scenarios in turn:
 *   journey.mjs  首页 → 演出详情 → 选座 → 确认订单 → 支付 (simulator) → 已出票 → 票夹 with live QR
 *   refund.mjs   申请退款 on 订单详情 → 退款中 → 订单已退款
 *   staff.mjs    检票工作台: scan → 已入场, again → 重复入场, another show's ticket → 非本场票
 * Where DevTools is absent (Linux CI) it says plainly that it was skipped and exits 77 (SKIP_EXIT
 * of scripts/steps.mjs), so the client and root test summaries show it as SKIPPED, not PASS.
 *
 *   WECHAT_DEVTOOLS_CLI=/path/to/cli npm run test:automator -w client
 *   node client/test/automator/run.mjs --check   (no DevTools: the scenarios' pages and
 *                                                 selectors looked up in an existing dist/weapp)
 *
 * DevTools needs Settings -> Security -> Service port turned on (see client/README.md).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { DIST_WEAPP, ROOT, rootRequire } from '../harness/paths.mjs';
import { skipStep } from '../../../scripts/steps.mjs';
import { SELECTORS as JOURNEY, journey } from './journey.mjs';
import { SELECTORS as REFUND, refund } from './refund.mjs';
import { SELECTORS as STAFF, staff } from './staff.mjs';

const SCENARIOS = [
  ['journey', journey, JOURNEY],
  ['refund', refund, REFUND],
  ['staff', staff, STAFF],
];

/** A class or text as the compiled JS holds it (Taro's output escapes non-ASCII as \uXXXX). */
const escaped = (s) =>
  s.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function jsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return jsFiles(p);
    return /\.(js|wxml|wxss)$/.test(e.name) ? [p] : [];
  });
}

/**
 * --check: every page a scenario opens exists in dist/weapp, and every class (and text) it looks
 * for is in the compiled output: the page's own files or the shared chunks (common.js, comp.js).
 * Taro's .wxml are generic templates (class="{{i.cl}}"), so classes live in the compiled JS;
 * a modifier built at run time counts when its prefix is in the JS and the class in the .wxss.
 */
function check() {
  if (!existsSync(path.join(DIST_WEAPP, 'app.json'))) {
    console.log(`--check: no ${DIST_WEAPP} (build it with \`npm run build:weapp\`); nothing checked`);
    return 0;
  }
  const all = jsFiles(DIST_WEAPP);
  const read = new Map(all.map((f) => [f, readFileSync(f, 'utf8')]));
  const shared = all.filter((f) =>
    /^(common|comp|app|vendors|taro)\.(js|wxml|wxss)$/.test(path.relative(DIST_WEAPP, f)),
  );
  const pages = JSON.parse(readFileSync(path.join(DIST_WEAPP, 'app.json'), 'utf8'));
  const known = new Set([
    ...pages.pages,
    ...(pages.subPackages ?? pages.subpackages ?? []).flatMap((p) => p.pages.map((x) => `${p.root}/${x}`)),
  ]);
  const problems = [];
  for (const [name, , selectors] of SCENARIOS) {
    for (const { page, sel, text } of selectors) {
      if (!known.has(page) || !existsSync(path.join(DIST_WEAPP, `${page}.js`))) {
        problems.push(`${name}: page ${page} not in dist/weapp/app.json`);
        continue;
      }
      const files = [...all.filter((f) => f.startsWith(path.join(DIST_WEAPP, page))), ...shared];
      const cls = sel.replace(/^\./, '');
      const where = (needle) => files.filter((f) => read.get(f).includes(needle));
      // A modifier the page builds at run time (`status-head--${status}`): its block-- prefix in
      // the JS and the whole class in the page's stylesheet.
      const code = (fs) => fs.filter((f) => !f.endsWith('.wxss'));
      const prefix = cls.includes('--') ? `${cls.split('--')[0]}--` : undefined;
      let hasClass = code(where(cls));
      if (!hasClass.length && prefix && code(where(prefix)).length)
        hasClass = where(`.${cls}`).filter((f) => f.endsWith('.wxss'));
      const hasText = text === undefined ? [] : [...where(text), ...where(escaped(text))];
      const ok = hasClass.length > 0 && (text === undefined || hasText.length > 0);
      const at = [...new Set(hasClass.map((f) => path.relative(DIST_WEAPP, f)))].join(', ');
      console.log(
        `${ok ? 'ok  ' : 'MISS'} ${name}: ${page} ${sel}${text ? ` "${text}"` : ''} (${at || 'nowhere'})`,
      );
      if (!ok) problems.push(`${name}: ${sel}${text ? ` "${text}"` : ''} not found for ${page}`);
    }
  }
  console.log(
    problems.length ? `--check: ${problems.length} missing:\n${problems.join('\n')}` : '--check: all found',
  );
  return problems.length ? 1 : 0;
}

if (process.argv.includes('--check')) process.exit(check());

const CANDIDATES = [
  process.env.WECHAT_DEVTOOLS_CLI,
  '/Applications/wechatwebdevtools.app/Contents/MacOS/cli',
  'C:/Program Files (x86)/Tencent/微信web开发者工具/cli.bat',
  'C:/Program Files/Tencent/微信web开发者工具/cli.bat',
].filter(Boolean);

const cliPath = CANDIDATES.find((p) => existsSync(p));
if (!cliPath) {
  skipStep(
    'miniprogram-automator',
    `WeChat DevTools not found (it runs on Windows and macOS only; looked in: ${CANDIDATES.join(', ')}; ` +
      'set WECHAT_DEVTOOLS_CLI to its cli). Nothing was tested.',
  );
}

const { startStack, mintFanToken } = await import('../harness/stack.mjs');
const { seedShow } = await import('../harness/seed.mjs');
const { mockPayThroughSimulator, mockPrompts, useToken } = await import('./lib.mjs');
const automator = rootRequire('miniprogram-automator');

const TITLE = '星河巡回演唱会 2027 · 上海站';
const OTHER = '午夜回声 2027 巡回演唱会 · 北京站';

const stack = await startStack({ tag: 'automator', sim: true });
let miniProgram;
try {
  // A plain session (no waiting room, no real name), and another show for 非本场票.
  const main = await seedShow(stack.deps, { title: TITLE, purchaseLimit: 4 });
  const other = await seedShow(stack.deps, { title: OTHER, venueName: '国家体育馆' });
  const seeded = { ...main, title: TITLE, otherShowId: other.showId, otherSessionId: other.sessionId };
  const build = spawnSync('npm', ['run', 'build:weapp'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, TARO_APP_API_BASE: stack.apiUrl },
  });
  assert.equal(build.status, 0, 'weapp build against the test server');
  miniProgram = await automator.launch({
    cliPath,
    projectPath: ROOT,
    projectConfig: { setting: { urlCheck: false } },
  });
  // The fan: logged in as the app keeps it (DevTools' own wx.login codes mean nothing to the
  // simulator), with a 联系手机 from a previous order so 确认订单 needs no typing.
  const fan = await mintFanToken(stack, 'automator-fan');
  await useToken(miniProgram, fan.token);
  await miniProgram.callWxMethod('setStorageSync', 'showtix.contactPhone', '13800138000');
  await mockPayThroughSimulator(miniProgram, stack.sim.url);
  await mockPrompts(miniProgram);

  const ctx = { miniProgram, stack, seeded, fan };
  ctx.bought = await journey(ctx);
  await refund(ctx);
  await staff(ctx);
  console.log('PASSED miniprogram-automator suite: journey, refund and staff scan in WeChat DevTools');
} finally {
  await miniProgram?.close();
  await stack.close();
}
