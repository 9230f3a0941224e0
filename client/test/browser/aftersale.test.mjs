/**
 * The four after-sales flows of issue 16 in the fan's pages of the H5 build, against the real
 * server and WeChat simulator, on one stack: 转赠 (fan A offers a ticket in 票夹, fan B opens the
 * copied link and accepts it), 改签 (a ticket moved to a dearer seat from 订单详情 through the seat
 * map, the difference paid in the cashier), 候补 (joined on a sold-out tier from 演出详情, a refund
 * returns a seat, the offer paid from 我的), and 赠票 (an organiser's comp claimed in 我的 →
 * 领取赠票). Purchases that only set the scene go through the API. Screenshots:
 * test-artifacts/client/aftersale-*.png.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  modalButton,
  openPage,
  seatMapReady,
  screenshot,
  tapSeats,
  waitForTestId,
} from '../harness/browser.mjs';
import { serverDist } from '../harness/paths.mjs';
import { api, mintFanToken, until } from '../harness/stack.mjs';
import { seedShow } from '../harness/seed.mjs';
import { browserSuite } from '../harness/suite.mjs';

const ADMIN_PASSWORD = 'aftersale-admin-password';
const dataDir = mkdtempSync(path.join(tmpdir(), 'showtix-aftersale-'));

let stack;
let show; // transfers, exchanges and comps
let small; // two seats in one tier: sold out, for the waiting list
let admin; // an operator's bearer token

/** Calls the admin API as the organiser. */
const asAdmin = (method, p, body) => api(stack, admin, method, `/api/v1/admin${p}`, body);

/** A show whose only session has two seats in one tier (¥380), to be sold out. */
async function seedSmallShow(deps) {
  const { insertVenue, insertShow, insertSession } = serverDist('catalog/admin-repo.js');
  const { blockSeats } = serverDist('catalog/layout.js');
  const { openSale } = serverDist('jobs/session-lifecycle.js');
  const now = new Date();
  const venueId = await insertVenue(deps.db, {
    name: '蓝调小剧场',
    city: '上海',
    seats: blockSeats({ section: 'A区', rows: 1, seatsPerRow: 2, originX: 0, originY: 0 }),
  });
  const showId = await insertShow(deps.db, {
    title: '午夜蓝调 Live · 小剧场',
    venueId,
    posterUrl: null,
    refundRules: [{ hoursBeforeStart: 0, feePercent: 0 }],
  });
  const sessionId = await insertSession(deps.db, {
    showId,
    startsAt: new Date(now.getTime() + 20 * 86_400_000),
    saleStartsAt: now,
    purchaseLimit: 4,
    tiers: [{ name: '看台', priceFen: 38_000, color: '#2f7cf6' }],
  });
  await openSale(deps, sessionId, now);
  return { showId, sessionId };
}

/** A paid, ticketed order bought through the API (the scene, not the flow under test). */
async function buyTickets(token, sessionId, seatIds) {
  const res = await fetch(`${stack.apiUrl}/api/v1/orders`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'idempotency-key': `aftersale-${Date.now()}-${Math.random().toString(36).slice(2)}`,
    },
    body: JSON.stringify({ sessionId, seatIds, contactPhone: '13800138000' }),
  });
  const order = await res.json();
  assert.equal(res.status, 201, JSON.stringify(order));
  const { payParams } = await api(stack, token, 'POST', `/api/v1/orders/${order.orderNo}/pay`);
  stack.sim.pay(payParams);
  return until(async () => {
    const o = await api(stack, token, 'GET', `/api/v1/orders/${order.orderNo}`);
    return o.status === 'ticketed' && o;
  }, `order ${order.orderNo} ticketed`);
}

/** Free seats of a tier in the API's seat map. */
async function freeSeatsOf(sessionId, tierName, n) {
  const map = await api(stack, null, 'GET', `/api/v1/sessions/${sessionId}/seatmap`);
  const tier = map.tiers.find((t) => t.name === tierName);
  const states = await api(stack, null, 'GET', `/api/v1/sessions/${sessionId}/seat-states`);
  const taken = new Set([...(states.sold ?? []), ...(states.held ?? [])]);
  return map.seats
    .filter((s) => s.tierId === tier.id && !taken.has(s.id))
    .slice(0, n)
    .map((s) => s.id);
}

const ticketsOf = async (token) => (await api(stack, token, 'GET', '/api/v1/tickets')).items;

/** The cashier of the simulator: checks the amount, pays, and waits for the app again. */
async function payInCashier(page, amount) {
  await page.waitForURL(`${stack.sim.url}/sim/cashier**`);
  await page.getByTestId('cashier-confirm').waitFor();
  assert.equal((await page.getByTestId('cashier-amount').innerText()).replace(/\s/g, ''), amount);
  await page.getByTestId('cashier-confirm').click();
  await page.waitForURL((u) => u.origin === stack.appUrl && u.hash.includes('result=success'));
}

/** On a pending order's page: 去支付, pay `amount` in the cashier, and wait for the tickets. */
async function payPendingOrder(page, amount) {
  await page.locator('[data-testid=order-status][data-status=pending]').waitFor();
  await page.getByTestId('pay-again').click();
  await payInCashier(page, amount);
  await page.locator('[data-testid=order-status][data-status=ticketed]').waitFor({ timeout: 30_000 });
}

const { fan } = browserSuite(
  {
    tag: 'e2e_aftersale',
    env: { ADMIN_USERNAME: 'organiser', ADMIN_PASSWORD, DATA_DIR: dataDir },
  },
  async (started) => {
    stack = started;
    show = await seedShow(stack.deps, { title: '星河巡回演唱会 2027 · 上海站' });
    small = await seedSmallShow(stack.deps);
    ({ token: admin } = await api(stack, null, 'POST', '/api/v1/admin/login', {
      username: 'organiser',
      password: ADMIN_PASSWORD,
    }));
    // The organiser allows transfers and exchanges for the big show (both are off by default).
    await asAdmin('PUT', `/shows/${show.showId}/transfer-settings`, {
      enabled: true,
      cutoffMinutes: 120,
      onceOnly: true,
    });
    await asAdmin('PATCH', `/shows/${show.showId}`, { exchangeRules: { allowed: true, cutoffMinutes: 120 } });
  },
);

test.after(() => rmSync(dataDir, { recursive: true, force: true }));

test('转赠: fan A offers a ticket in 票夹, fan B opens the copied link and accepts it', async () => {
  const giver = await mintFanToken(stack, 'openid-aftersale-giver');
  const receiver = await mintFanToken(stack, 'openid-aftersale-receiver');
  const order = await buyTickets(giver.token, show.sessionId, await freeSeatsOf(show.sessionId, '看台', 1));
  const ticketId = order.items[0].ticketId;

  const a = await fan({ token: giver.token });
  await a.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.appUrl });
  await openPage(a.page, stack.appUrl, 'tickets');
  await waitForTestId(a.page, 'transfer-btn');
  await a.page.getByTestId('transfer-btn').click();
  await (await modalButton(a.page, '确定')).click();
  await waitForTestId(a.page, 'transfer-offer');
  await a.page.locator('[data-testid=ticket][data-status=transferring]').waitFor();
  await a.page.getByTestId('transfer-share').click();
  const link = await until(
    () => a.page.evaluate(() => navigator.clipboard.readText().catch(() => '')),
    'the transfer link on the clipboard',
  );
  assert.match(link, /#\/pages\/transfer\/index\?code=/);
  await screenshot(a.page, 'aftersale-01-transfer-offered', { toast: true }); // 链接已复制

  const b = await fan({ token: receiver.token });
  await b.page.goto(link);
  await waitForTestId(b.page, 'transfer-preview');
  await b.page.getByTestId('transfer-preview').getByText('星河巡回演唱会').waitFor();
  await screenshot(b.page, 'aftersale-02-transfer-preview');
  await b.page.getByTestId('transfer-accept').click();
  // Accepted: B's 票夹, with the ticket marked as received.
  await b.page.waitForURL(/pages\/tickets\/index/);
  await b.page.locator('[data-testid=ticket][data-status=valid]').getByTestId('ticket-received').waitFor();
  await screenshot(b.page, 'aftersale-03-transfer-received');
  const mine = await ticketsOf(receiver.token);
  assert.equal(mine.length, 1);
  assert.equal(mine[0].status, 'valid');

  // A's 票夹 shows the ticket as handed on (reloaded: the page shows again).
  await openPage(a.page, stack.appUrl, 'tickets');
  await a.page.locator('[data-testid=ticket][data-status=transferred]').getByText('已转赠').first().waitFor();
  await screenshot(a.page, 'aftersale-04-transfer-given');
  assert.equal((await ticketsOf(giver.token)).find((t) => t.ticketId === ticketId).status, 'transferred');
  // A's order names the ticket as handed on and offers no refund of it.
  await openPage(a.page, stack.appUrl, 'order', { orderNo: order.orderNo });
  await a.page.getByTestId('item-transfer').getByText('已转赠').waitFor();
  assert.equal(await a.page.getByTestId('refund-order').count(), 0);
  assert.deepEqual([...a.errors, ...b.errors], []);
});

test('改签: a ticket moved to a dearer seat from 订单详情, the difference paid in the cashier', async () => {
  const buyer = await mintFanToken(stack, 'openid-aftersale-exchange');
  const order = await buyTickets(buyer.token, show.sessionId, await freeSeatsOf(show.sessionId, '看台', 1));
  const oldTicket = order.items[0].ticketId;
  const { page, errors } = await fan({ token: buyer.token });

  await openPage(page, stack.appUrl, 'order', { orderNo: order.orderNo });
  await waitForTestId(page, 'exchange-open');
  await page.getByTestId('exchange-open').click();
  await page.getByTestId('exchange-pick').first().click();
  await page.getByTestId('exchange-session').first().click();
  await screenshot(page, 'aftersale-05-exchange-panel');
  await page.getByTestId('exchange-pick-seats').click();

  // The seat map in 改签 mode: one 内场 seat (¥1,280) for the 看台 one (¥680).
  await seatMapReady(page);
  const [seat] = await page.evaluate(() => {
    const r = document.querySelector('.seat-canvas__canvas').getBoundingClientRect();
    const [cx, cy] = [r.left + r.width / 2, r.top + r.height / 2];
    return window.__seatmap
      .freeSeats(100_000)
      .filter((s) => window.__seatmap.tier(s.index) === '内场')
      .sort((p, q) => Math.hypot(p.x - cx, p.y - cy) - Math.hypot(q.x - cx, q.y - cy));
  });
  assert.ok(seat, 'a free 内场 seat on screen');
  await tapSeats(page, [seat]);
  await screenshot(page, 'aftersale-06-exchange-seat');
  await page.getByTestId('confirm-seats').click();

  // The exchange order: the difference to pay (¥600), one tap to the cashier.
  await payPendingOrder(page, '¥600.00');
  await screenshot(page, 'aftersale-07-exchange-paid');

  // The original order lists the exchange as done; 票夹 shows the new ticket and the old one void.
  await openPage(page, stack.appUrl, 'order', { orderNo: order.orderNo });
  await page.locator('[data-testid=exchange-row][data-status=done]').waitFor();
  // Its ticket is marked exchanged, and no refund is offered for it (the server has none to give).
  await page.getByTestId('item-exchanged').waitFor();
  assert.equal(await page.getByTestId('refund-order').count(), 0);
  await screenshot(page, 'aftersale-08-exchange-done');
  const tickets = await ticketsOf(buyer.token);
  assert.equal(tickets.find((t) => t.ticketId === oldTicket).status, 'exchanged');
  const fresh = tickets.filter((t) => t.status === 'valid');
  assert.equal(fresh.length, 1);
  assert.equal(fresh[0].seatId, seat.id);
  await openPage(page, stack.appUrl, 'tickets');
  await page.locator('[data-testid=ticket][data-status=exchanged]').getByText('已改签').first().waitFor();
  await page.locator('[data-testid=ticket][data-status=valid]').waitFor();
  await screenshot(page, 'aftersale-09-exchange-wallet');
  assert.deepEqual(errors, []);
});

test('候补: joined on a sold-out tier, a refund returns a seat, the offer is paid from 我的', async () => {
  const holder = await mintFanToken(stack, 'openid-aftersale-holder');
  const waiter = await mintFanToken(stack, 'openid-aftersale-waiter');
  const map = await api(stack, null, 'GET', `/api/v1/sessions/${small.sessionId}/seatmap`);
  const sold = await buyTickets(
    holder.token,
    small.sessionId,
    map.seats.map((s) => s.id),
  );

  const { page, errors } = await fan({ token: waiter.token });
  await openPage(page, stack.appUrl, 'show', { id: small.showId });
  await waitForTestId(page, 'waitlist-join');
  await page.getByTestId(`waitlist-join-${map.tiers[0].id}`).click();
  await page.locator('.taro__toast').getByText('已加入候补').waitFor();
  await screenshot(page, 'aftersale-10-waitlist-joined', { toast: true });
  const joined = (await api(stack, waiter.token, 'GET', '/api/v1/me/waitlist')).items;
  assert.equal(joined.length, 1);
  assert.equal(joined[0].state, 'waiting');

  // The holder returns one ticket: its seat is offered to the waiting fan.
  await api(stack, holder.token, 'POST', `/api/v1/orders/${sold.orderNo}/refund`, {
    ticketIds: [sold.items[0].ticketId],
  });
  await until(
    async () => (await api(stack, waiter.token, 'GET', '/api/v1/me/waitlist')).items[0].state === 'offered',
    'the offer of the returned seat',
    30_000,
  );
  await openPage(page, stack.appUrl, 'me');
  await page.getByTestId('waitlist-state').getByText('候补成功，待支付').waitFor();
  await screenshot(page, 'aftersale-11-waitlist-offered');
  await page.getByTestId('waitlist-pay').click();
  await payPendingOrder(page, '¥380.00');
  await screenshot(page, 'aftersale-12-waitlist-paid');
  const tickets = await ticketsOf(waiter.token);
  assert.equal(tickets.length, 1);
  assert.equal(tickets[0].status, 'valid');
  assert.deepEqual(errors, []);
});

test('赠票: the organiser issues a comp, the person claims it in 我的 → 领取赠票', async () => {
  const guest = await mintFanToken(stack, 'openid-aftersale-guest');
  const seatIds = await freeSeatsOf(show.sessionId, 'VIP 内场', 2);
  await asAdmin('POST', `/sessions/${show.sessionId}/reservations/seats`, { seatIds });
  const comp = await asAdmin('POST', `/sessions/${show.sessionId}/comps`, {
    idempotencyKey: 'aftersale-comp-0001',
    name: '张三',
    phone: '13900139000',
    seatIds,
  });
  assert.match(comp.claimCode, /^[A-Z2-9]{10}$/);

  const { page, errors } = await fan({ token: guest.token });
  await openPage(page, stack.appUrl, 'me');
  await waitForTestId(page, 'me-comp');
  await page.getByTestId('me-comp').click();
  await page.getByTestId('comp-code').locator('input').fill(comp.claimCode.toLowerCase());
  await screenshot(page, 'aftersale-13-comp-code');
  await page.getByTestId('comp-claim').click();
  await waitForTestId(page, 'comp-done');
  await page.getByText('已领取 2 张赠票').waitFor();
  await screenshot(page, 'aftersale-14-comp-claimed');
  await page.getByTestId('comp-tickets').click();
  await page.waitForURL(/pages\/tickets\/index/);
  await page.locator('[data-testid=ticket][data-status=valid]').nth(1).waitFor();
  await screenshot(page, 'aftersale-15-comp-wallet');
  const tickets = await ticketsOf(guest.token);
  assert.deepEqual(tickets.map((t) => t.seatId).sort(), [...seatIds].sort());
  assert.deepEqual(errors, []);
});
