/**
 * The pages after the seat map, in the H5 build against the real server: a real-name order is
 * submitted (attendees, hold countdown, 支付 button), listed, opened and cancelled; the zone
 * picker prices a quantity; the ticket wallet renders QR codes. Payment itself, the cashier and
 * real tickets belong to the end-to-end suite added with the payment API.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newFanPage, openPage, screenshot, seatMapReady, tapSeats } from '../harness/browser.mjs';
import { mainlandId } from '../harness/ids.mjs';
import { mintFanToken, startStack } from '../harness/stack.mjs';
import { seedShow } from '../harness/seed.mjs';

const yuan = (fen) => `¥${String((fen - (fen % 100)) / 100).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
const flat = (s) => s.replace(/\s/g, '');
/** Focus and scroll back to the top, so the screenshot shows the page's head. */
const toTop = (page, selector) =>
  page.evaluate((sel) => {
    document.activeElement?.blur?.();
    const el = document.querySelector(sel);
    if (el) el.scrollTop = 0;
  }, selector);

let stack;
let browser;
let seeded;
let fan;

before(async () => {
  stack = await startStack({ tag: 'purchase' });
  seeded = await seedShow(stack.deps, { zones: true, realName: true, title: '林间音乐节 2027 · 杭州站' });
  browser = await launchBrowser();
  fan = await newFanPage(browser, stack, { token: (await mintFanToken(stack, 'purchase-fan')).token });
});

after(async () => {
  await fan?.context.close();
  await browser?.close();
  await stack?.close();
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
  const people = [
    ['张伟', mainlandId('19900101', 123)],
    ['李娜', mainlandId('19920615', 456)],
  ];
  for (const [i, [name, id]] of people.entries()) {
    await page.getByTestId('attendee-name').nth(i).locator('input').fill(name);
    await page.getByTestId('attendee-id').nth(i).locator('input').fill(id);
  }
  await toTop(page, '.confirm__scroll');
  await screenshot(page, '05-confirm');
  await page.getByTestId('submit-order').click();
  await page.getByTestId('hold-timer').waitFor();
  assert.match(await page.getByTestId('attendee-summary').first().innerText(), /张伟[\s\S]*110\*+\d{3}[\dX]/);
  await toTop(page, '.confirm__scroll');
  assert.match(await page.getByTestId('pay-button').innerText(), new RegExp(`支付\\s*${total.replace('¥', '¥\\s*')}`));
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
  // GET /api/v1/tickets is not on the server yet: answer it with the contract's shape,
  // pointing at a real order so seat, time and venue come from the real API.
  const { token } = await mintFanToken(stack, 'purchase-fan');
  const orders = await (await fetch(`${stack.apiUrl}/api/v1/orders`, { headers: { authorization: `Bearer ${token}` } })).json();
  const order = orders.items[0];
  const items = order.items.map((it, i) => ({ ticketId: `T${order.orderNo}${i}`, orderNo: order.orderNo, sessionId: order.sessionId, seatId: it.seatId, status: i === 0 ? 'valid' : 'used', qr: `STX1.${order.orderNo}.${i}.c2lnbmF0dXJl` }));
  await fan.context.route('**/api/v1/tickets', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ items }) }));
  await openPage(page, stack.appUrl, 'tickets');
  await page.getByTestId('ticket').nth(1).waitFor();
  const first = page.getByTestId('ticket').first();
  await first.locator('.ticket__title').getByText('林间音乐节').waitFor();
  await first.getByText(`${order.items[0].section} ${order.items[0].row}排${order.items[0].number}座`).waitFor();
  const qr = await first.getByTestId('ticket-qr').evaluate((el) => el.querySelector('img')?.getAttribute('src') ?? el.getAttribute('src'));
  assert.match(qr, /^data:image\/svg\+xml/);
  await screenshot(page, '10-tickets');
  await fan.context.unroute('**/api/v1/tickets');
});
