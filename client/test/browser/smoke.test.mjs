/**
 * Browser smoke test of the H5 build against the real server (own database and Redis prefix):
 * show list -> show detail -> seat map drawn -> two seats selected -> running total correct.
 * Screenshots of each page go to test-artifacts/client/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, seatMapReady, tapSeats, yuan, zoomIn } from '../harness/browser.mjs';
import { seedShow, seedUpcomingShow } from '../harness/seed.mjs';
import { browserSuite } from '../harness/suite.mjs';

let stack;
let seeded;
let fan;

browserSuite({ tag: 'smoke' }, async (started, newFan) => {
  stack = started;
  seeded = await seedShow(stack.deps, { zones: true });
  await seedUpcomingShow(stack.deps);
  fan = await newFan(); // browsing and picking seats need no login
});

test('a fan goes from the show list to two selected seats with the right total', async () => {
  const { page } = fan;
  await openPage(page, stack.appUrl, 'index');
  const card = page.getByTestId('show-card').filter({ hasText: '星河巡回演唱会' });
  await card.waitFor();
  assert.equal(await page.getByTestId('show-card').count(), 2);
  await page.getByText('开售 · 还剩').waitFor();
  await screenshot(page, '01-home');

  await card.click();
  await page.getByTestId('session-card').first().waitFor();
  assert.equal(await page.getByTestId('session-card').count(), 2);
  await page.getByText('退票规则', { exact: true }).waitFor(); // the card's title (购票须知 mentions it too)
  await screenshot(page, '02-show-detail');

  await page.getByTestId('buy-button').click();
  await seatMapReady(page);
  await screenshot(page, '03-seatmap');

  // Two free seats, tapped where the map draws them; prices come from the API itself.
  const map = await (await fetch(`${stack.apiUrl}/api/v1/sessions/${seeded.sessionId}/seatmap`)).json();
  const price = new Map(map.seats.map((s) => [s.id, map.tiers.find((t) => t.id === s.tierId).priceFen]));
  await zoomIn(page);
  const seats = await page.evaluate(() => window.__seatmap.freeSeats(60));
  const picks = [seats[0], seats[seats.length - 1]];
  await tapSeats(page, picks);
  const expected = picks.reduce((sum, s) => sum + price.get(s.id), 0);
  const total = await page.getByTestId('running-total').innerText();
  assert.equal(total.replace(/\s/g, ''), yuan(expected));
  assert.match(await page.getByTestId('confirm-seats').innerText(), /确认选座（2）/);
  await screenshot(page, '04-seatmap-selected');
  assert.deepEqual(fan.errors, [], `page errors: ${fan.errors.join('; ')}`);
});
