/**
 * An order left unpaid expires, end to end in the H5 build against the real server with an
 * injected clock (its own stack: WeChat Pay's notifications are checked against that clock, so
 * nothing here pays after the clock moves). The server's expiry job cancels the order once the
 * clock passes the hold (plus the Redis grace); a seat map left open shows the seats free again
 * without reloading, the buyer's 支付 gets ORDER_EXPIRED with the way back to the seat map, and
 * 我的订单 lists the order as cancelled.
 * Screenshots: test-artifacts/client/e2e-expiry-*.png.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fillContactPhone,
  openPage,
  screenshot,
  seatMapReady,
  seatsNearCentre,
  tapSeats,
  waitForSeatStates,
  zoomIn,
} from '../harness/browser.mjs';
import { api, clockModule, until } from '../harness/stack.mjs';
import { seedShow } from '../harness/seed.mjs';
import { browserSuite } from '../harness/suite.mjs';

// One tap opens WeChat Pay (the cashier) at once, so the expiring order has a payment to close
// at WeChat first. The simulator keeps real time and, as WeChat, refuses messages more than five
// minutes off its clock: the hold is short enough that the server's clock, advanced past it,
// stays within that.
const HOLD_MINUTES = 2;
const TITLE = '夏日焰火音乐会 2027 · 上海站';

let stack;
let clock;
let seeded;

const { fan, fans } = browserSuite(
  () => {
    const { ManualClock } = clockModule();
    clock = new ManualClock(Date.now());
    // The server caches seat states per session for SEAT_STATES_CACHE_MS measured on the injected
    // clock: a clock that stands still between advances would keep one snapshot forever (see the
    // report), so this stack reads Redis on every request.
    return { tag: 'e2e_expiry', clock, env: { EXPIRY_INTERVAL_MS: '200', SEAT_STATES_CACHE_MS: '0' } };
  },
  async (started) => {
    stack = started;
    seeded = await seedShow(stack.deps, { now: clock.now(), holdMinutes: HOLD_MINUTES, title: TITLE });
  },
);

async function openSeatMap(page) {
  await openPage(page, stack.appUrl, 'seatmap', { sessionId: seeded.sessionId, showId: seeded.showId });
  await seatMapReady(page);
  await zoomIn(page);
}

test('an unpaid order expires: its seats are free again and the order is cancelled', async () => {
  const buyer = await fan();
  const watcher = await fan();

  // The buyer holds two seats and leaves the order unpaid.
  await openSeatMap(buyer.page);
  const picks = await seatsNearCentre(buyer.page, 2);
  const ids = picks.map((s) => s.id);
  await tapSeats(buyer.page, picks);
  await buyer.page.getByTestId('confirm-seats').click();
  await fillContactPhone(buyer.page);
  await buyer.page.getByTestId('submit-order').click();
  // The cashier opens at once (one tap); the fan goes back to 确认订单 without paying.
  await buyer.page.waitForURL(`${stack.sim.url}/sim/cashier**`);
  await buyer.page.goBack();
  await buyer.page.getByTestId('hold-timer').getByText('内完成支付').waitFor();
  await screenshot(buyer.page, 'e2e-expiry-01-held');
  const token = await buyer.page.evaluate(() => JSON.parse(localStorage.getItem('showtix.token')).data);
  const [order] = (await api(stack, token, 'GET', '/api/v1/orders')).items;
  assert.equal(order.status, 'pending');
  assert.equal(new Date(order.expireAt).getTime(), clock.now().getTime() + HOLD_MINUTES * 60_000);

  // Another fan has the map open: the two seats are taken.
  await openSeatMap(watcher.page);
  await waitForSeatStates(watcher.page, ids, 'held');
  const drawnAt = await watcher.page.evaluate(() => {
    window.__sameDocument = true;
    return window.__seatmapDrawnAt;
  });
  await screenshot(watcher.page, 'e2e-expiry-02-seatmap-held');

  // The hold runs out (and the Redis grace after it); the expiry job cancels the order.
  clock.advance(HOLD_MINUTES * 60_000 + stack.config.holdGraceMs + 1000);
  await until(
    async () => (await api(stack, token, 'GET', `/api/v1/orders/${order.orderNo}`)).status === 'cancelled',
    'the expiry job to cancel the order',
  );

  // The open map shows them free again by its own refresh, without reloading.
  await waitForSeatStates(watcher.page, ids, 'available');
  assert.deepEqual(await watcher.page.evaluate(() => [window.__sameDocument, window.__seatmapDrawnAt]), [
    true,
    drawnAt,
  ]);
  await screenshot(watcher.page, 'e2e-expiry-03-seatmap-free');

  // The buyer, still on 确认订单, tries to pay: ORDER_EXPIRED, and the way back to pick again.
  await buyer.page.getByTestId('pay-button').click();
  const sheet = buyer.page.locator('[data-testid=error-panel][data-code=ORDER_EXPIRED]');
  await sheet.getByText('订单已超时').waitFor();
  await sheet.getByText('支付时间已过，座位已释放，请重新下单。').waitFor();
  // The page takes the server's word over its own countdown.
  await buyer.page.getByTestId('hold-expired').waitFor();
  assert.equal(await buyer.page.getByTestId('pay-button').count(), 0);
  await screenshot(buyer.page, 'e2e-expiry-04-pay-expired');
  await sheet.getByTestId('error-action').click();
  // Back on the seat map, the seats are free again. (The H5 cashier is another site, so the map
  // came back as a new page and the earlier picks are not selected any more; in WeChat the pay
  // sheet is an overlay and the map keeps them.)
  await seatMapReady(buyer.page);
  await waitForSeatStates(buyer.page, ids, 'available');
  await screenshot(buyer.page, 'e2e-expiry-05-seatmap-again');

  // 我的订单 and 订单详情 show the order cancelled.
  await openPage(buyer.page, stack.appUrl, 'orders');
  const card = buyer.page.getByTestId('order-card').filter({ hasText: order.orderNo });
  await card.getByText('已取消').waitFor();
  await card.locator('.order-card__title').getByText(TITLE).waitFor();
  await screenshot(buyer.page, 'e2e-expiry-06-orders');
  await card.click();
  await buyer.page.locator('[data-testid=order-status][data-status=cancelled]').waitFor();
  assert.equal(await buyer.page.getByTestId('pay-again').count(), 0);
  await screenshot(buyer.page, 'e2e-expiry-07-order-cancelled');

  for (const f of fans) assert.deepEqual(f.errors, [], `page errors: ${f.errors.join('; ')}`);
});
