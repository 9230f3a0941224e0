#!/usr/bin/env node
/**
 * miniprogram-automator suite: drives the real mini-program in WeChat DevTools (Windows/macOS).
 * Where DevTools is absent (Linux CI) it says plainly that it was skipped and exits 77 (SKIP_EXIT
 * of scripts/steps.mjs), so the client and root test summaries show it as SKIPPED, not PASS.
 *
 *   WECHAT_DEVTOOLS_CLI=/path/to/cli npm run test:automator -w client
 *
 * DevTools needs Settings -> Security -> Service port turned on. The suite starts the real back
 * end (own database and Redis prefix), builds dist/weapp against it, opens the repo root (its
 * project.config.json points DevTools at dist/weapp), selects two seats and checks the total.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { ROOT, rootRequire } from '../harness/paths.mjs';
import { skipStep } from '../../../scripts/steps.mjs';

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

const { startStack } = await import('../harness/stack.mjs');
const { seedShow } = await import('../harness/seed.mjs');
const automator = rootRequire('miniprogram-automator');

const stack = await startStack({ tag: 'automator', sim: false });
let miniProgram;
try {
  const seeded = await seedShow(stack.deps, { purchaseLimit: 4 });
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
  const page = await miniProgram.reLaunch(
    `/pages/seatmap/index?sessionId=${seeded.sessionId}&showId=${seeded.showId}`,
  );
  await page.waitFor('.seat-canvas__canvas');
  await page.waitFor(async () => (await page.$$('.legend__item')).length >= 3);

  // Two seats of the front row, tapped where the map draws them (same geometry as the app).
  const canvas = await page.$('.seat-canvas__canvas');
  const [{ left, top }, { width, height }] = [await canvas.offset(), await canvas.size()];
  const map = await (await fetch(`${stack.apiUrl}/api/v1/sessions/${seeded.sessionId}/seatmap`)).json();
  const { buildModel, afterDenseTap } = rootRequire(`${ROOT}/client/test/automator/geometry.cjs`);
  const fitPoints = buildModel(map, width, height);
  // A dense map: the first tap zooms in about the first seat (then seats are ~30 px apart).
  const points = afterDenseTap(map, fitPoints, width, height, fitPoints[0]);
  if (points !== fitPoints) {
    await canvas.trigger('tap', { x: left + fitPoints[0].x, y: top + fitPoints[0].y });
    await page.waitFor(500);
  }
  for (const p of points.slice(0, 2)) await canvas.trigger('tap', { x: left + p.x, y: top + p.y });
  await page.waitFor(async () => (await page.$$('.seat-chip')).length === 2);
  const total = await (await page.$('.bottom-bar__info')).text();
  assert.equal(
    total.replace(/\s/g, ''),
    `合计¥${(points[0].priceFen + points[1].priceFen) / 100}`.replace(/\B(?=(\d{3})+(?!\d))/g, ','),
  );
  console.log('PASSED miniprogram-automator suite: two seats selected in WeChat DevTools, total', total);
} finally {
  await miniProgram?.close();
  await stack.close();
}
