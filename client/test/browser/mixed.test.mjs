/**
 * A mixed session (reserved seats and a standing zone) in the H5 build against the real server
 * and WeChat simulator: the fan switches the seat map to 站票, picks the zone and a quantity,
 * and buys it end to end (确认订单 -> simulator cashier -> 订单详情 ticketed -> 我的票夹).
 * One order holds one kind (the API takes seatIds or zoneId + quantity), so the page sells
 * seats or standing tickets, never both at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fillContactPhone, flat, openPage, screenshot, seatMapReady, yuan } from '../harness/browser.mjs';
import { api } from '../harness/stack.mjs';
import { seedShow } from '../harness/seed.mjs';
import { browserSuite } from '../harness/suite.mjs';

const TITLE = '星河巡回演唱会 2027 · 上海站';
const tokenOf = (page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('showtix.token') ?? 'null')?.data ?? null);

let stack;
let seeded;

const { fan } = browserSuite({ tag: 'e2e_mixed' }, async (started) => {
  stack = started;
  seeded = await seedShow(stack.deps, { title: TITLE, standing: true });
});

test('a fan buys two standing tickets of a mixed session through the cashier', async () => {
  const { page, errors } = await fan();
  const map = await api(stack, null, 'GET', `/api/v1/sessions/${seeded.sessionId}/seatmap`);
  assert.equal(map.seating, 'reserved');
  const zone = map.zones.find((z) => z.name === '内场站席');
  assert.ok(zone, 'the session sells the standing zone');

  await openPage(page, stack.appUrl, 'seatmap', { sessionId: seeded.sessionId, showId: seeded.showId });
  await seatMapReady(page);
  // The seat map says there is a standing zone and lets the fan switch to it.
  const tab = page.getByTestId('seating-zones');
  await tab.waitFor({ timeout: 10_000 });
  assert.match(flat(await tab.innerText()), /站票/);
  await tab.click();
  await page.getByTestId('zone-option').filter({ hasText: '内场站席' }).click();
  await page.getByTestId('zone-plus').click();
  await page.getByTestId('zone-quantity').getByText('2').waitFor();
  assert.equal(flat(await page.getByTestId('running-total').innerText()), yuan(2 * 28_000));
  await screenshot(page, 'e2e-mixed-01-standing');

  // Back to the seats and again to 站票: the zone choice is kept.
  await page.getByTestId('seating-seats').click();
  await page.getByTestId('seat-canvas').waitFor();
  await page.getByTestId('seating-zones').click();
  await page.getByTestId('zone-quantity').getByText('2').waitFor();

  await page.getByTestId('confirm-zone').click();
  await page.getByTestId('order-line').getByText('内场站席 × 2').waitFor();
  await fillContactPhone(page);
  await page.getByTestId('submit-order').click(); // one tap: straight to the cashier
  await page.waitForURL(`${stack.sim.url}/sim/cashier**`);
  await page.getByTestId('cashier-confirm').waitFor();
  assert.equal(flat(await page.getByTestId('cashier-amount').innerText()), '¥560.00');
  const orderNo = (await page.getByTestId('cashier-order').innerText()).trim();
  await page.getByTestId('cashier-confirm').click();
  await page.waitForURL((u) => u.origin === stack.appUrl && u.hash.includes('result=success'));
  await page.locator('[data-testid=order-status][data-status=ticketed]').waitFor({ timeout: 30_000 });
  await screenshot(page, 'e2e-mixed-02-ticketed');

  const token = await tokenOf(page);
  const order = await api(stack, token, 'GET', `/api/v1/orders/${orderNo}`);
  assert.equal(order.status, 'ticketed');
  assert.equal(order.amountFen, 56_000);
  assert.deepEqual(
    order.items.map((i) => i.zoneId),
    [zone.id, zone.id],
  );
  const { items } = await api(stack, token, 'GET', '/api/v1/tickets');
  assert.deepEqual(
    items.map((t) => t.zoneId),
    [zone.id, zone.id],
  );
  await page.getByText('查看电子票').click();
  await page.getByTestId('ticket').nth(1).waitFor();
  await page.getByTestId('ticket').first().getByText('内场站席').waitFor();
  assert.deepEqual(errors, [], `page errors: ${errors.join('; ')}`);
});

test('a reload of 确认订单 keeps the pending order; a fan at the limit is told 已达限购 before buying more', async () => {
  const { page, errors } = await fan();
  await openPage(page, stack.appUrl, 'seatmap', { sessionId: seeded.sessionId, showId: seeded.showId });
  await seatMapReady(page);
  await page.getByTestId('seating-zones').click();
  await page.getByTestId('zone-option').filter({ hasText: '内场站席' }).click();
  for (let i = 0; i < 3; i++) await page.getByTestId('zone-plus').click();
  await page.getByTestId('zone-quantity').getByText('4').waitFor(); // the session's limit
  await page.getByTestId('confirm-zone').click();
  await fillContactPhone(page);
  await page.getByTestId('submit-order').click();
  await page.waitForURL(`${stack.sim.url}/sim/cashier**`);

  // Back from the cashier (the H5 page from scratch): the same pending order, its countdown and
  // 支付; a reload again keeps it.
  await page.goBack();
  await page.getByTestId('hold-timer').waitFor();
  await page.reload();
  await page.getByTestId('hold-timer').waitFor();
  assert.equal(await page.getByText('选座信息已失效').count(), 0);
  assert.equal(flat(await page.getByTestId('pay-button').innerText()), flat(`支付 ${yuan(4 * 28_000)}`));
  assert.equal(await page.getByTestId('submit-order').count(), 0);
  const token = await tokenOf(page);
  const { items } = await api(stack, token, 'GET', '/api/v1/orders');
  assert.equal(items.length, 1, 'the reload placed no second order');
  await screenshot(page, 'e2e-mixed-03-confirm-reloaded');

  // The four units held by that order are the limit: the show page says so before the queue or
  // the map, and the map says so too.
  await openPage(page, stack.appUrl, 'show', { id: seeded.showId });
  await page.getByTestId('limit-reached').getByText('您已购买本场 4 张，已达每人限购 4 张').waitFor();
  assert.equal(flat(await page.getByTestId('buy-button').innerText()), '已达限购');
  await screenshot(page, 'e2e-mixed-04-show-limit');
  await openPage(page, stack.appUrl, 'seatmap', { sessionId: seeded.sessionId, showId: seeded.showId });
  await seatMapReady(page);
  await page.getByTestId('limit-reached').waitFor();
  assert.equal(flat(await page.getByTestId('confirm-seats').innerText()), '已达限购');
  assert.deepEqual(errors, [], `page errors: ${errors.join('; ')}`);
});
