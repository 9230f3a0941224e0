/**
 * The pages after the seat map, in the H5 build against the real server and WeChat simulator:
 * the fan logs in through the simulator (H5 login adapter), submits a real-name order
 * (attendees, hold countdown, 支付 button), finds it in 我的订单, opens and cancels it; the zone
 * picker prices a quantity; the ticket wallet shows real tickets with QR codes (bought through
 * the API and paid in the simulator: the browser cashier flow is checkout.test.mjs's).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fillContactPhone,
  flat,
  openPage,
  screenshot,
  seatMapReady,
  tapSeats,
  yuan,
} from '../harness/browser.mjs';
import { mainlandId } from '../harness/ids.mjs';
import { api, until } from '../harness/stack.mjs';
import { seedShow } from '../harness/seed.mjs';
import { browserSuite } from '../harness/suite.mjs';

/** Focus and scroll back to the top, so the screenshot shows the page's head. */
const toTop = (page, selector) =>
  page.evaluate((sel) => {
    document.activeElement?.blur?.();
    const el = document.querySelector(sel);
    if (el) el.scrollTop = 0;
  }, selector);

let stack;
let seeded;
let fan;

browserSuite({ tag: 'purchase' }, async (started, newFan) => {
  stack = started;
  seeded = await seedShow(stack.deps, { zones: true, realName: true, title: '林间音乐节 2027 · 杭州站' });
  fan = await newFan(); // no token: the app logs in through the simulator
});

test('a real-name order is submitted with attendees, held with a countdown, listed and cancelled', async () => {
  const { page } = fan;
  await openPage(page, stack.appUrl, 'seatmap', { sessionId: seeded.sessionId, showId: seeded.showId });
  await seatMapReady(page);
  const seats = await page.evaluate(() => window.__seatmap.freeSeats(400));
  await tapSeats(page, [seats[300], seats[301]]);
  const total = flat(await page.getByTestId('running-total').innerText());
  await page.getByTestId('confirm-seats').click();

  await page.getByTestId('attendee').nth(1).waitFor();
  assert.equal(flat(await page.getByTestId('confirm-total').innerText()), total);
  await page.getByTestId('submit-order').click();
  await page.getByText('请填写观演人姓名').first().waitFor(); // the shared schema refuses blanks
  await page.getByTestId('contact-phone-error').getByText('请填写联系手机').waitFor();
  const people = [
    ['张伟', mainlandId('19900101', 123)],
    ['李娜', mainlandId('19920615', 456)],
  ];
  for (const [i, [name, id]] of people.entries()) {
    await page.getByTestId('attendee-name').nth(i).locator('input').fill(name);
    await page.getByTestId('attendee-id').nth(i).locator('input').fill(id);
  }
  await fillContactPhone(page, '1380013800'); // one digit short
  await page.getByTestId('submit-order').click();
  await page.getByTestId('contact-phone-error').getByText('请输入正确的 11 位手机号').waitFor();
  await fillContactPhone(page);
  await toTop(page, '.confirm__scroll');
  await screenshot(page, '05-confirm');
  await page.getByTestId('submit-order').click();
  // One tap: the cashier opens at once; back from it, 确认订单 shows the order held.
  await page.waitForURL(`${stack.sim.url}/sim/cashier**`);
  await page.goBack();
  await page.getByTestId('hold-timer').waitFor();
  assert.ok(await page.evaluate(() => localStorage.getItem('showtix.openid')), 'a stable per-browser openid');
  await toTop(page, '.confirm__scroll');
  assert.match(
    await page.getByTestId('pay-button').innerText(),
    new RegExp(`支付\\s*${total.replace('¥', '¥\\s*')}`),
  );
  await screenshot(page, '06-confirm-held');

  await openPage(page, stack.appUrl, 'orders');
  const card = page.getByTestId('order-card').first();
  await card.getByText('待支付').waitFor();
  await card.locator('.order-card__title').getByText('林间音乐节').waitFor();
  await screenshot(page, '07-orders');

  await card.click();
  await page.getByTestId('order-status').getByText('内完成支付').waitFor();
  assert.equal(flat(await page.getByTestId('order-amount').innerText()), total);
  await screenshot(page, '08-order-detail');
  await page.getByTestId('cancel-order').click();
  await page.locator('.taro-modal__foot').getByText('取消订单').click();
  await page.locator('[data-testid=order-status][data-status=cancelled]').waitFor();
  assert.deepEqual(fan.errors, [], `page errors: ${fan.errors.join('; ')}`);
});

test('the zone picker sells a quantity at the zone price', async () => {
  const { page } = fan;
  await openPage(page, stack.appUrl, 'seatmap', { sessionId: seeded.zoneSessionId, showId: seeded.showId });
  await page.getByTestId('zone-option').first().click();
  await page.getByTestId('zone-plus').click();
  await page.getByTestId('zone-quantity').getByText('2').waitFor();
  assert.equal(flat(await page.getByTestId('running-total').innerText()), yuan(2 * 98_000));
  await screenshot(page, '09-zone-picker');
});

test('the ticket wallet shows each ticket with its seat and QR code', async () => {
  const { page } = fan;
  // The same fan (the token the app keeps) buys two seats through the API and pays in WeChat.
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('showtix.token')).data);
  const map = await api(stack, null, 'GET', `/api/v1/sessions/${seeded.sessionId}/seatmap`);
  const seatIds = map.seats
    .filter((s) => s.state === 'available')
    .slice(-2)
    .map((s) => s.id);
  const attendees = [
    { name: '王芳', idType: 'id_card', idNumber: mainlandId('19880808', 321) },
    { name: '赵磊', idType: 'passport', idNumber: 'E98765432' },
  ];
  const res = await fetch(`${stack.apiUrl}/api/v1/orders`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'idempotency-key': `wallet-${Date.now()}`,
    },
    body: JSON.stringify({ sessionId: seeded.sessionId, seatIds, attendees }),
  });
  const order = await res.json();
  assert.equal(res.status, 201, JSON.stringify(order));
  const { payParams } = await api(stack, token, 'POST', `/api/v1/orders/${order.orderNo}/pay`);
  stack.sim.pay(payParams);
  await until(
    async () => (await api(stack, token, 'GET', '/api/v1/tickets')).items.length === 2,
    'two tickets',
  );

  await openPage(page, stack.appUrl, 'tickets');
  await page.getByTestId('ticket').nth(1).waitFor();
  const first = page.getByTestId('ticket').first();
  await first.locator('.ticket__title').getByText('林间音乐节').waitFor();
  const seat = map.seats.find((s) => s.id === seatIds[0]);
  await first.getByText(`${seat.section} ${seat.row}排${seat.number}座`).waitFor();
  await first.getByText('可使用').waitFor();
  const qr = await first
    .getByTestId('ticket-qr')
    .evaluate((el) => el.querySelector('img')?.getAttribute('src') ?? el.getAttribute('src'));
  assert.match(qr, /^data:image\/svg\+xml/);
  await screenshot(page, '10-tickets');

  await openPage(page, stack.appUrl, 'order', { orderNo: order.orderNo });
  await page.locator('[data-testid=order-status][data-status=ticketed]').waitFor();
  await page.getByText('申请退款').waitFor();
  await screenshot(page, '11-order-ticketed');
  assert.deepEqual(fan.errors, [], `page errors: ${fan.errors.join('; ')}`);
});
