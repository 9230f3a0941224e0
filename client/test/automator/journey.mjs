/**
 * (a) The fan's whole journey in WeChat DevTools: 首页 → 演出详情 → 选座购买 (through 排队 when
 * the session has a waiting room) → seat map taps → 确认订单 → 提交订单并支付 (wx.requestPayment
 * mocked: the simulator pays) → 订单详情 已出票 → 查看电子票: the wallet shows both tickets with
 * their rotating QR, and the spoken digits this phone's key makes now.
 */
import assert from 'node:assert/strict';
import { ROOT, rootRequire } from '../harness/paths.mjs';
import {
  api,
  deviceSeed,
  lastPay,
  selectorsByPage,
  spokenDigits,
  tapText,
  until,
  waitPage,
  waitText,
} from './lib.mjs';

/** Every page and selector this scenario uses (checked against dist/weapp by `run.mjs --check`). */
export const SELECTORS = selectorsByPage({
  'pages/index/index': ['.show-card', '.show-card__title'],
  'pages/show/index': [
    ['.session', '每单限购'],
    ['.btn--primary', '选座购买'],
  ],
  'pages/queue/index': ['.queue'],
  'pages/seatmap/index': [
    '.seat-canvas__canvas',
    '.legend__item',
    '.seat-chip',
    ['.bottom-bar__info', '合计'],
    ['.btn--primary', '确认选座'],
  ],
  'pages/confirm/index': ['.confirm__title', ['.btn--primary', '提交订单并支付']],
  'pages/order/index': [
    '.status-head--ticketed',
    ['.status-head__text', '已出票'],
    ['.btn--primary', '查看电子票'],
  ],
  'pages/tickets/index': [
    '.ticket',
    '.ticket__title',
    '.ticket__seat',
    ['.ticket__no', '票号'],
    '.live-qr',
    ['.live-qr__text', '动态二维码'],
    ['.live-qr__digits', '人工核验码'],
  ],
});

const yuan = (fen) => `¥${(fen / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;

/** Two seats of the map tapped where the app draws them (geometry.cjs mirrors the app's fit). */
async function pickTwoSeats(page, map) {
  await page.waitFor('.seat-canvas__canvas');
  await until(async () => (await page.$$('.legend__item')).length >= 3, 'the seat map legend');
  const canvas = await page.$('.seat-canvas__canvas');
  const [{ left, top }, { width, height }] = [await canvas.offset(), await canvas.size()];
  const { buildModel, afterDenseTap } = rootRequire(`${ROOT}/client/test/automator/geometry.cjs`);
  const fitPoints = buildModel(map, width, height);
  // A dense map: the first tap zooms in about the first seat (then seats are ~30 px apart).
  const points = afterDenseTap(map, fitPoints, width, height, fitPoints[0]);
  if (points !== fitPoints) {
    await canvas.trigger('tap', { x: left + fitPoints[0].x, y: top + fitPoints[0].y });
    await page.waitFor(500);
  }
  for (const p of points.slice(0, 2)) await canvas.trigger('tap', { x: left + p.x, y: top + p.y });
  await until(async () => (await page.$$('.seat-chip')).length === 2, 'two seat chips');
  return points.slice(0, 2);
}

/** 首页 → 演出详情 → 选座购买 (→ 排队 → 选座 when the session queues). */
async function toSeatMap(miniProgram, title) {
  const home = await miniProgram.reLaunch('/pages/index/index');
  const card = await until(async () => {
    for (const c of await home.$$('.show-card')) {
      const t = await c.$('.show-card__title');
      if (t && (await t.text()).includes(title)) return c;
    }
    return undefined;
  }, `the show card of ${title} on 首页`);
  await card.tap();
  const show = await waitPage(miniProgram, 'pages/show/index');
  await waitText(show, '.session', '每单限购');
  await tapText(show, '.btn--primary', '选座购买');
  const next = await until(async () => {
    const p = await miniProgram.currentPage();
    return ['pages/queue/index', 'pages/seatmap/index'].includes(p?.path) ? p : undefined;
  }, '排队 or 选座 after 选座购买');
  // A waiting room lets the fan through to the seat map by itself when their turn comes.
  return next.path === 'pages/queue/index' ? waitPage(miniProgram, 'pages/seatmap/index', 120_000) : next;
}

export async function journey({ miniProgram, stack, seeded, fan }) {
  const seatmap = await toSeatMap(miniProgram, seeded.title);
  const map = await api(stack.apiUrl, null, 'GET', `/api/v1/sessions/${seeded.sessionId}/seatmap`);
  const points = await pickTwoSeats(seatmap, map);
  const total = (await (await seatmap.$('.bottom-bar__info')).text()).replace(/\s/g, '');
  assert.equal(total, `合计${yuan(points[0].priceFen + points[1].priceFen)}`);
  await tapText(seatmap, '.btn--primary', '确认选座');

  // 确认订单 (a plain session: no attendees; 联系手机 prefilled from storage by run.mjs).
  const confirm = await waitPage(miniProgram, 'pages/confirm/index');
  await waitText(confirm, '.confirm__title', seeded.title);
  await tapText(confirm, '.btn--primary', '提交订单并支付');

  // Paid in the simulator (mocked wx.requestPayment): 订单详情 follows the order to 已出票.
  const order = await waitPage(miniProgram, 'pages/order/index');
  await until(async () => await order.$('.status-head--ticketed'), '订单详情 已出票', 60_000).catch(
    async (e) => {
      throw new Error(`${e.message}; the simulator answered the pay sheet: ${await lastPay(miniProgram)}`);
    },
  );
  await waitText(order, '.status-head__text', '已出票');
  const { items } = await api(stack.apiUrl, fan.token, 'GET', '/api/v1/orders');
  const bought = items.find((o) => o.status === 'ticketed');
  assert.ok(bought, 'the ticketed order is the fan’s');
  assert.equal(bought.amountFen, points[0].priceFen + points[1].priceFen);

  // 票夹: both tickets, each with a rotating QR made with this phone's key.
  await tapText(order, '.btn--primary', '查看电子票');
  const wallet = await waitPage(miniProgram, 'pages/tickets/index');
  await until(async () => (await wallet.$$('.live-qr')).length === 2, 'two live QR codes in 票夹');
  await waitText(wallet, '.live-qr__text', '动态二维码');
  const tickets = await until(async () => {
    const t = (await api(stack.apiUrl, fan.token, 'GET', '/api/v1/tickets')).items;
    return t.length === 2 && t.every((x) => x.binding) ? t : undefined;
  }, 'both tickets bound to this phone');
  const seed = await deviceSeed(miniProgram);
  const first = await waitText(wallet, '.ticket', `票号 ${tickets[0].ticketId}`);
  const digits = (await (await first.$('.live-qr__digits')).text()).replace(/\D/g, '');
  const now = Date.now();
  const step = tickets[0].codeStepMs || 20_000;
  // The page's ticker may be a step behind this clock right at a boundary.
  assert.ok(
    [now, now - step].some((t) => spokenDigits(tickets[0], seed, t) === digits),
    `票夹's spoken code ${digits} is this phone's for ticket ${tickets[0].ticketId}`,
  );
  console.log(`journey: 2 seats, ${total}, order ${bought.orderNo} 已出票, 票夹 shows 2 rotating QR codes`);
  return { orderNo: bought.orderNo, tickets, seed };
}
