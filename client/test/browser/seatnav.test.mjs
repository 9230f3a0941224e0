/**
 * Seat map navigation (issue 17, walk-through #6) in the H5 build against the real server: at
 * fit zoom a tap on the dense arena zooms in about the finger instead of picking; zoomed in, the
 * canvas draws row numbers and section names and a minimap, which a tap moves the view by;
 * 全览 returns to the whole venue; the price legend filters the map; 场次 switches to the show's
 * other session. What the canvas draws is read from CanvasRenderingContext2D.fillText calls.
 * Screenshots: test-artifacts/client/seatnav-*.png.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  openPage,
  screenshot,
  seatMapReady,
  seatsNearCentre,
  settle,
  waitForSeatMap,
} from '../harness/browser.mjs';
import { seedShow } from '../harness/seed.mjs';
import { browserSuite } from '../harness/suite.mjs';

let stack;
let seeded;

const { fan } = browserSuite({ tag: 'e2e_seatnav' }, async (started) => {
  stack = started;
  // The compact arena (~1,300 seats) and a second session of the show (standing only).
  seeded = await seedShow(stack.deps, { zones: true, title: '星河巡回演唱会 2027 · 上海站' });
});

/** Records the texts of each canvas frame (render.ts starts a frame with setTransform). */
async function recordCanvasText(page) {
  await page.addInitScript(() => {
    const proto = CanvasRenderingContext2D.prototype;
    const { setTransform, fillText } = proto;
    window.__canvasTexts = [];
    proto.setTransform = function (...a) {
      window.__canvasTexts = [];
      return setTransform.apply(this, a);
    };
    proto.fillText = function (text, x, y, ...rest) {
      window.__canvasTexts.push({ text: String(text), x, y });
      return fillText.call(this, text, x, y, ...rest);
    };
  });
}

const texts = (page) => page.evaluate(() => window.__canvasTexts.map((t) => t.text));
const view = (page) => page.evaluate(() => window.__seatmap.view());

/** Taps a point and waits for the map's next frame. */
async function tapAndDraw(page, x, y) {
  const before = await page.evaluate(() => window.__seatmapDraws ?? 0);
  await page.touchscreen.tap(x, y);
  await page.waitForFunction((n) => (window.__seatmapDraws ?? 0) > n, before);
}

test('seat map: dense taps zoom in; row numbers, section names and a minimap when zoomed; 全览', async () => {
  const { page, errors } = await fan();
  await recordCanvasText(page);
  await openPage(page, stack.appUrl, 'seatmap', { sessionId: seeded.sessionId, showId: seeded.showId });
  await waitForSeatMap(page, 90_000); // the first load of a fresh build on a busy machine
  await seatMapReady(page);
  const fit = await view(page);
  assert.ok(fit.pitchPx < 16, `seats ${fit.pitchPx} px apart at fit zoom: dense`);
  assert.equal(await page.evaluate(() => window.__seatmap.dense()), true);
  assert.equal(fit.minimap, false);
  assert.ok(!(await texts(page)).some((t) => /^\d+$/.test(t)), 'no row numbers at fit zoom');
  await screenshot(page, 'seatnav-01-fit');

  // One tap on the dense map: a zoom about the finger, no seat picked.
  const [seat] = await seatsNearCentre(page, 1);
  await tapAndDraw(page, seat.x, seat.y);
  await settle(page);
  const zoomed = await view(page);
  assert.ok(zoomed.pitchPx >= 16, JSON.stringify(zoomed));
  assert.equal(zoomed.minimap, true);
  assert.equal(await page.getByTestId('seat-chip').count(), 0);
  const drawn = await texts(page);
  const rows = drawn.filter((t) => /^\d+$/.test(t));
  assert.ok(rows.length >= 5, `row numbers drawn: ${rows.join(',')}`);
  assert.ok(
    drawn.some((t) => /区$/.test(t)),
    `a section name drawn: ${drawn.join(',')}`,
  );
  // The seat stayed under the finger: the same tap now picks it.
  const again = await page.evaluate((i) => window.__seatmap.seatPoint(i), seat.index);
  assert.ok(Math.hypot(again.x - seat.x, again.y - seat.y) < 2);
  await page.touchscreen.tap(again.x, again.y);
  await page.getByTestId('seat-chip').waitFor();
  await screenshot(page, 'seatnav-02-zoomed-rows-minimap');

  // A tap on the minimap's far corner moves the view there; nothing else is picked.
  const box = await page.evaluate(() => window.__seatmap.minimap());
  const before = await page.evaluate((i) => window.__seatmap.seatPoint(i), seat.index);
  await tapAndDraw(page, box.x + box.w - 8, box.y + box.h - 8);
  const after = await page.evaluate((i) => window.__seatmap.seatPoint(i), seat.index);
  assert.equal(await page.getByTestId('seat-chip').count(), 1);
  assert.ok(after.x < before.x - 50 && after.y < before.y - 50, JSON.stringify({ before, after }));
  assert.equal((await view(page)).scale, zoomed.scale);
  await screenshot(page, 'seatnav-03-minimap-moved');

  // 全览: the whole venue again, no minimap.
  await page.getByTestId('zoom-all').click();
  await page.waitForFunction((s) => window.__seatmap.view().scale === s, fit.scale);
  assert.equal((await view(page)).minimap, false);
  assert.deepEqual(errors, []);
});

test('seat map: the price legend filters the map; 场次 opens the show’s other session', async () => {
  const { page, errors } = await fan();
  await openPage(page, stack.appUrl, 'seatmap', { sessionId: seeded.sessionId, showId: seeded.showId });
  await waitForSeatMap(page, 90_000); // the first load of a fresh build on a busy machine
  await seatMapReady(page);
  const legend = page.getByTestId('legend-tier');
  assert.deepEqual(await legend.allInnerTexts(), ['VIP 内场 ¥1,880', '内场 ¥1,280', '看台 ¥680']);
  await legend.nth(1).click(); // 内场 ¥1,280
  await page.locator('[data-testid=legend-tier][aria-pressed=true]').getByText('内场 ¥1,280').waitFor();
  // Zoomed in (a tap) where VIP (rows 1-4) meets 内场: a VIP seat is shown but not offered.
  const edge = await page.evaluate(() => {
    const vip = window.__seatmap.freeSeats(5000).filter((s) => window.__seatmap.tier(s.index) === 'VIP 内场');
    return vip.sort((a, b) => b.y - a.y || a.x - b.x)[0];
  });
  await tapAndDraw(page, edge.x, edge.y);
  const pick = (name) =>
    page.evaluate(
      ([n, at]) =>
        window.__seatmap
          .freeSeats(5000)
          .filter((s) => window.__seatmap.tier(s.index) === n)
          .sort((a, b) => Math.hypot(a.x - at.x, a.y - at.y) - Math.hypot(b.x - at.x, b.y - at.y))[0],
      [name, edge],
    );
  const vip = await pick('VIP 内场');
  const floor = await pick('内场');
  assert.ok(vip && floor, 'a VIP and a 内场 seat on screen');
  await page.touchscreen.tap(vip.x, vip.y);
  await page.getByText('当前只看「内场」，点图例中的票档可切换').waitFor();
  assert.equal(await page.getByTestId('seat-chip').count(), 0);
  await screenshot(page, 'seatnav-04-legend-filter', { toast: true });
  await page.touchscreen.tap(floor.x, floor.y);
  await page.getByTestId('seat-chip').waitFor();

  // 场次: both sessions of the show, this one pressed; the other (standing only) opens its page.
  const chips = page.getByTestId('session-chip');
  await chips.nth(1).waitFor();
  assert.equal(await chips.count(), 2);
  assert.equal(await chips.nth(0).getAttribute('aria-pressed'), 'true');
  await screenshot(page, 'seatnav-05-sessions');
  await chips.nth(1).click();
  await page.waitForURL((u) => u.hash.includes(`sessionId=${seeded.zoneSessionId}`));
  await page.getByTestId('zone-option').first().waitFor();
  assert.equal(await page.getByTestId('session-chip').nth(1).getAttribute('aria-pressed'), 'true');
  await screenshot(page, 'seatnav-06-other-session');
  assert.deepEqual(errors, []);
});
