/**
 * (b) A refund asked for on 订单详情: a second order of the fan (bought and paid through the API
 * and the simulator), 申请退款 tapped, 确认退款 confirmed (wx.showModal mocked): the page shows
 * the refund under way (退款处理中 / 退款申请已提交) and then settled (订单已退款) as the
 * simulator's refund notification arrives.
 */
import assert from 'node:assert/strict';
import { api, buyThroughApi, selectorsByPage, tapText, until } from './lib.mjs';

export const SELECTORS = selectorsByPage({
  'pages/order/index': [
    '.status-head--ticketed',
    ['.btn--ghost', '申请退款'],
    '.status-head__text',
    ['.status-head__sub', '退款申请已提交'],
    '.status-head--refunded',
  ],
});

const UNDER_WAY = ['退款处理中', '退款申请已提交', '退款处理中，电子票已停用'];

export async function refund({ miniProgram, stack, seeded, fan }) {
  const orderNo = await buyThroughApi(stack, fan.token, seeded.sessionId, 1);
  const page = await miniProgram.reLaunch(`/pages/order/index?orderNo=${orderNo}`);
  await until(async () => await page.$('.status-head--ticketed'), '订单详情 已出票');
  await tapText(page, '.btn--ghost', '申请退款');
  // Under way or already settled: the simulator may refund before the page's next poll.
  const seen = await until(async () => {
    if (await page.$('.status-head--refunded')) return '订单已退款';
    const els = [...(await page.$$('.status-head__text')), ...(await page.$$('.status-head__sub'))];
    const text = (await Promise.all(els.map((e) => e.text()))).join(' ').replace(/\s/g, '');
    return UNDER_WAY.find((w) => text.includes(w));
  }, '退款中 on 订单详情');
  await until(async () => await page.$('.status-head--refunded'), '订单已退款 on 订单详情', 60_000);
  const order = await api(stack.apiUrl, fan.token, 'GET', `/api/v1/orders/${orderNo}`);
  assert.equal(order.status, 'refunded');
  console.log(`refund: order ${orderNo} showed "${seen}", then 订单已退款`);
}
