/**
 * End to end in the H5 build against the real server (its jobs and RabbitMQ consumers), MySQL,
 * Redis and the WeChat simulator, with nothing stubbed in the browser:
 *   - a fan logs in (the app asks the simulator for a wx.login code, then the API), picks two
 *     seats, and one tap on 提交订单并支付 places the order and opens the simulator's cashier
 *     (WeChat Pay's stand-in); the fan pays there, comes back to the order ticketed, finds two tickets
 *     with QR codes in 我的票夹, and refunds the order from 订单详情 under the show's free tier;
 *     the 联系手机 typed on 确认订单 comes back from the server masked on 订单详情;
 *   - two fans race for one seat: the second gets the SEAT_TAKEN sheet, goes back to the seat
 *     map refreshed with that seat taken, and buys another seat.
 * Screenshots of every page: test-artifacts/client/e2e-*.png.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fillContactPhone,
  flat,
  modalButton,
  openPage,
  pickSeatsNearCentre,
  screenshot,
  seatLabel as label,
  seatMapReady,
  seatsById,
  seatsNearCentre,
  tapSeats,
  waitForSeatStates,
  yuan,
  zoomIn,
} from '../harness/browser.mjs';
import { api } from '../harness/stack.mjs';
import { seedShow } from '../harness/seed.mjs';
import { browserSuite } from '../harness/suite.mjs';

const TITLE = '星河巡回演唱会 2027 · 上海站';
const PHONE = '13912345678';
/** The fan's bearer token as the app keeps it (Taro storage: {"data": value}). */
const tokenOf = (page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('showtix.token') ?? 'null')?.data ?? null);

/**
 * The fan closes the cashier (WeChat Pay's sheet): back on 订单详情 the order is kept, pending,
 * with 支付 to pay again.
 */
async function closeCashier(page) {
  await page.waitForURL(`${stack.sim.url}/sim/cashier**`);
  await page.getByTestId('cashier-cancel').click();
  await page.waitForURL((u) => u.origin === stack.appUrl && u.hash.includes('result=cancel'));
  await page.locator('[data-testid=order-status][data-status=pending]').waitFor();
  await page.getByTestId('pay-again').waitFor();
}

let stack;
let seeded;
let seatInfo;

const { fan } = browserSuite({ tag: 'e2e_pay' }, async (started) => {
  stack = started;
  seeded = await seedShow(stack.deps, { title: TITLE });
  const map = await api(stack, null, 'GET', `/api/v1/sessions/${seeded.sessionId}/seatmap`);
  const price = new Map(map.tiers.map((t) => [t.id, t.priceFen]));
  seatInfo = new Map(map.seats.map((s) => [s.id, { ...s, priceFen: price.get(s.tierId) }]));
});

test('a fan logs in, picks two seats, pays in the cashier, gets two tickets and refunds them', async () => {
  const { page, errors } = await fan();
  const simCalls = [];
  page.on('response', (r) => {
    const u = new URL(r.url());
    if (u.pathname === '/sim/login' || u.pathname === '/api/v1/auth/wx-login')
      simCalls.push(`${r.request().method()} ${u.origin}${u.pathname} ${r.status()}`);
  });

  // 首页 -> 演出详情 -> 选座
  await openPage(page, stack.appUrl, 'index');
  const card = page.getByTestId('show-card').filter({ hasText: '星河巡回演唱会' });
  await card.waitFor();
  await screenshot(page, 'e2e-pay-01-home');
  await card.click();
  await page.getByTestId('session-card').first().waitFor();
  await screenshot(page, 'e2e-pay-02-show');
  await page.getByTestId('buy-button').click();
  await seatMapReady(page);
  await screenshot(page, 'e2e-pay-03-seatmap');

  const picks = await pickSeatsNearCentre(page, 2);
  const expected = picks.reduce((sum, s) => sum + seatInfo.get(s.id).priceFen, 0);
  assert.equal(flat(await page.getByTestId('running-total').innerText()), yuan(expected));
  await screenshot(page, 'e2e-pay-04-seats-picked');

  // 确认订单: submitting is what makes the app log in (the fan has no token yet).
  assert.equal(await tokenOf(page), null, 'not logged in before the order');
  await page.getByTestId('confirm-seats').click();
  await page.getByTestId('order-line').nth(1).waitFor();
  for (const s of picks)
    await page
      .getByTestId('order-line')
      .getByText(label(seatInfo.get(s.id)))
      .waitFor();
  await fillContactPhone(page, PHONE);
  await screenshot(page, 'e2e-pay-05-confirm');
  // One tap: the order is placed and the simulator's cashier (another origin) opens at once,
  // with no second 支付 tap; paying brings the fan back to 订单详情 with ?result=success.
  await page.getByTestId('submit-order').click();
  await page.waitForURL(`${stack.sim.url}/sim/cashier**`);
  assert.deepEqual(simCalls, [
    `POST ${stack.sim.url}/sim/login 200`,
    `POST ${stack.appUrl}/api/v1/auth/wx-login 200`,
  ]);
  // The cashier opened only because the server's wx.requestPayment parameters verified.
  assert.equal(new URL(page.url()).searchParams.get('signType'), 'RSA');
  await page.getByTestId('cashier-confirm').waitFor();
  assert.equal(flat(await page.getByTestId('cashier-amount').innerText()), `¥${(expected / 100).toFixed(2)}`);
  const orderNo = (await page.getByTestId('cashier-order').innerText()).trim();
  await screenshot(page, 'e2e-pay-07-cashier');
  await page.getByTestId('cashier-confirm').click();
  await page.waitForURL((u) => u.origin === stack.appUrl && u.hash.includes('result=success'));
  assert.ok(page.url().includes(`orderNo=${orderNo}`), page.url());
  await page.locator('[data-testid=order-status][data-status=ticketed]').waitFor({ timeout: 30_000 });
  assert.ok(await tokenOf(page), 'the app keeps the token it got');
  await page.getByText('已出票，入场时请出示电子票').waitFor();
  await page.getByText('当前可免费退票').waitFor();
  // The number typed on 确认订单 was stored by the server and comes back masked.
  await page.getByTestId('order-contact-phone').getByText('联系手机：139****5678').waitFor();
  await screenshot(page, 'e2e-pay-08-order-ticketed');

  // 我的票夹: two tickets, their seats, QR codes of the server's payloads.
  await page.getByText('查看电子票').click();
  await page.getByTestId('ticket').nth(1).waitFor();
  assert.equal(await page.getByTestId('ticket').count(), 2);
  const token = await tokenOf(page);
  const { items } = await api(stack, token, 'GET', '/api/v1/tickets');
  assert.deepEqual(items.map((t) => t.seatId).sort(), picks.map((s) => s.id).sort());
  for (const [i, t] of items.entries()) {
    const el = page.getByTestId('ticket').nth(i);
    await el.locator('.ticket__title').getByText(TITLE).waitFor();
    await el.getByText(label(seatInfo.get(t.seatId))).waitFor();
    await el.getByText('可使用').waitFor();
    await el.getByText(`票号 ${t.ticketId}`).waitFor();
    assert.ok(t.qr.length > 0);
    const img = el.getByTestId('ticket-qr').locator('img');
    assert.match(await img.getAttribute('src'), /^data:image\/svg\+xml/);
    assert.ok((await img.boundingBox()).width >= 120, 'a QR code big enough to scan');
  }
  await screenshot(page, 'e2e-pay-09-tickets');

  // 我的订单 -> 订单详情 -> 申请退款 (the show's free tier: 7 days or more before the start).
  await page.locator('.tabbar__item').filter({ hasText: '订单' }).click();
  const orderCard = page.getByTestId('order-card').filter({ hasText: orderNo });
  await orderCard.getByText('已出票').waitFor();
  await orderCard.locator('.order-card__title').getByText(TITLE).waitFor();
  await screenshot(page, 'e2e-pay-10-orders');
  await orderCard.click();
  await page.getByTestId('refund-order').waitFor();
  await page.getByTestId('refund-order').click();
  const confirmRefund = await modalButton(page, '确认退款');
  await page.getByText(`将全额退回 ${yuan(expected)}。`).waitFor();
  await screenshot(page, 'e2e-pay-11-refund-confirm');
  await confirmRefund.click();
  // Requested -> processed at WeChat Pay -> refunded: the page follows it by itself.
  await page.locator('[data-testid=order-status][data-status=refunded]').waitFor({ timeout: 30_000 });
  await page
    .locator('[data-testid=refund-status][data-refund=succeeded]')
    .getByText(`${yuan(expected)} 已原路退回微信支付`)
    .waitFor();
  assert.equal(await page.getByTestId('refund-order').count(), 0);
  await screenshot(page, 'e2e-pay-12-refunded');
  const order = await api(stack, token, 'GET', `/api/v1/orders/${orderNo}`);
  assert.equal(order.refund?.status, 'succeeded');
  assert.deepEqual([order.refund.amountFen, order.refund.feeFen], [expected, 0]);
  assert.equal(order.contactPhone, '139****5678');

  await openPage(page, stack.appUrl, 'tickets');
  await page.getByTestId('ticket').nth(1).waitFor();
  assert.equal(await page.locator('[data-testid=ticket][data-status=voided]').count(), 2);
  await screenshot(page, 'e2e-pay-13-tickets-voided');
  assert.deepEqual(errors, [], `page errors: ${errors.join('; ')}`);
});

test('two fans race for one seat: the second is told, sees it taken, and buys another', async () => {
  const a = await fan();
  const b = await fan();
  for (const f of [a, b]) {
    await openPage(f.page, stack.appUrl, 'seatmap', { sessionId: seeded.sessionId, showId: seeded.showId });
    await seatMapReady(f.page);
    await zoomIn(f.page);
  }
  const [contested] = await seatsNearCentre(a.page, 1);
  await tapSeats(a.page, [contested]);
  await tapSeats(b.page, await seatsById(b.page, [contested.id]));
  // Both are on 确认订单 with the same seat before either submits.
  for (const f of [a, b]) {
    await f.page.getByTestId('confirm-seats').click();
    await f.page
      .getByTestId('order-line')
      .getByText(label(seatInfo.get(contested.id)))
      .waitFor();
    await fillContactPhone(f.page);
  }
  await a.page.getByTestId('submit-order').click();
  // A's seat is held the moment the cashier opens; A closes it: the order stays pending.
  await closeCashier(a.page);

  await b.page.getByTestId('submit-order').click();
  const sheet = b.page.locator('[data-testid=error-panel][data-code=SEAT_TAKEN]');
  await sheet.waitFor();
  await sheet.getByText('手慢了，座位刚被抢走').waitFor();
  await sheet.getByText('您选的座位刚被其他观众锁定，座位图已刷新，请换个座位。').waitFor();
  assert.equal((await sheet.getByTestId('error-action').innerText()).trim(), '重新选座');
  await screenshot(b.page, 'e2e-race-01-seat-taken');

  // 重新选座: back to the same seat map (not reloaded), refreshed: the seat is held, and
  // dropped from the fan's selection with a toast naming it.
  const drawnAt = await b.page.evaluate(() => window.__seatmapDrawnAt);
  await sheet.getByTestId('error-action').click();
  await b.page.getByText(`${label(seatInfo.get(contested.id))} 已被抢，请重新选择`).waitFor();
  await waitForSeatStates(b.page, [contested.id], 'held');
  await b.page.getByTestId('seat-chip').waitFor({ state: 'detached' });
  assert.match(await b.page.getByTestId('confirm-seats').innerText(), /请先选座/);
  assert.equal(await b.page.evaluate(() => window.__seatmapDrawnAt), drawnAt, 'the map was not reloaded');
  await screenshot(b.page, 'e2e-race-02-seatmap-toast', { toast: true });
  await screenshot(b.page, 'e2e-race-03-seatmap-refreshed'); // the toast gone: the seat in grey

  const [other] = await seatsNearCentre(b.page, 1);
  assert.notEqual(other.id, contested.id);
  await tapSeats(b.page, [other]);
  await screenshot(b.page, 'e2e-race-04-other-seat');
  await b.page.getByTestId('confirm-seats').click();
  await b.page
    .getByTestId('order-line')
    .getByText(label(seatInfo.get(other.id)))
    .waitFor();
  await fillContactPhone(b.page); // refused orders are not remembered: blank again
  await b.page.getByTestId('submit-order').click();
  await closeCashier(b.page);
  await screenshot(b.page, 'e2e-race-05-other-seat-held');

  const [orderA, orderB] = await Promise.all(
    [a, b].map(async (f) => (await api(stack, await tokenOf(f.page), 'GET', '/api/v1/orders')).items),
  );
  assert.deepEqual(
    orderA.map((o) => [o.status, o.items.map((i) => i.seatId)]),
    [['pending', [contested.id]]],
  );
  assert.deepEqual(
    orderB.map((o) => [o.status, o.items.map((i) => i.seatId)]),
    [['pending', [other.id]]],
  );
  for (const f of [a, b]) assert.deepEqual(f.errors, [], `page errors: ${f.errors.join('; ')}`);
});
