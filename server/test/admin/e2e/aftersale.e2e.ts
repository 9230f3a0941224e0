import type { Page } from 'playwright-core';
import { createSession, type SessionFixture } from '../../helpers/fixtures';
import type { PayEnv } from '../../helpers/pay-env';
import { ADMIN_PASSWORD } from '../helpers';
import { startAdminStack, type AdminStack, type Browser } from './browser';

/**
 * The organiser's after-sales pages (issue 16) in headless Chromium against the real server:
 * 预留与赠票 on a session (seats reserved from the list, a comp issued from them, its claim code
 * listed), a show's 转赠规则, a sold-out session's 候补 counts, and an order's 改签 in the order
 * drawer. What fans do (buying, joining the line, exchanging) goes through the API. Screenshots:
 * test-artifacts/admin/NN-aftersale-*.png.
 */
let p: PayEnv;
let b: Browser;
let page: Page;
let admin: string;
let stack: AdminStack;

beforeAll(async () => {
  stack = await startAdminStack('aftersale');
  ({ p, b, page } = stack);
  admin = (
    await p.api.call('POST', '/api/v1/admin/login', {
      body: { username: 'organiser', password: ADMIN_PASSWORD },
    })
  ).body.token;
});
afterAll(() => stack?.close());

const url = (route: string) => `${p.api.url}/admin${route}`;
const byTest = (id: string) => page.getByTestId(id);
const settle = () => page.waitForTimeout(600);
const asAdmin = (method: string, route: string, body?: unknown) =>
  p.api.call(method, `/api/v1/admin${route}`, { token: admin, body });

/** A paid, ticketed order of these seats (what a fan does in the mini-program). */
async function ticketed(openid: string, sessionId: string, seatIds: string[]) {
  const o = await p.orderAndPrepay(openid, { sessionId, seatIds, contactPhone: '13800138000' });
  p.sim.pay(o.payParams);
  await p.until(
    async () =>
      (await p.api.call('GET', `/api/v1/orders/${o.orderNo}`, { token: o.fan.token })).body.status ===
      'ticketed',
    `order ${o.orderNo} ticketed`,
  );
  const order = (await p.api.call('GET', `/api/v1/orders/${o.orderNo}`, { token: o.fan.token })).body;
  return { ...o, order };
}

/** Picks an option of the open antd select by typing and Enter (see admin.e2e.ts's pickOption). */
async function pickTyped(text: string) {
  await page.keyboard.type(text);
  const open = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  await open.locator('.ant-select-item-option-active', { hasText: text }).waitFor();
  await page.keyboard.press('Enter');
}

describe("the organiser's after-sales pages", () => {
  let s: SessionFixture;

  it('logs in', async () => {
    s = await createSession(p.deps, { seats: 40 });
    await page.goto(url('/'));
    await page.getByLabel('用户名').fill('organiser');
    await page.getByLabel('密码').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.getByText('实时销售看板').waitFor();
  });

  it('reserves two seats of a session and issues a comp from them; the claim code is listed', async () => {
    await page.goto(url(`/sessions/${s.sessionId}`));
    const panel = byTest('comp-panel');
    await panel.waitFor();
    await panel.getByText('预留 0').waitFor();
    await panel.locator('.ant-select').first().click();
    await pickTyped('A区 1排1座');
    await pickTyped('A区 1排2座');
    await page.keyboard.press('Escape');
    await panel.getByRole('button', { name: '预留所选座位' }).click();
    await panel.getByText('预留 2').waitFor();
    await byTest('issue-comp').click();
    const modal = page.getByRole('dialog', { name: '赠票' });
    await modal.getByLabel('姓名').fill('张三');
    await modal.getByLabel('手机号').fill('13900139000');
    // The comp's seats: the two reserved ones, the only options.
    await modal.locator('.ant-select').first().click();
    const options = page.locator(
      '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option',
    );
    await options.nth(1).waitFor();
    expect(await options.count()).toBe(2);
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await modal.locator('.ant-select-selection-item').nth(1).waitFor();
    await modal.getByLabel('姓名').click(); // closes the list
    await settle();
    await b.shot('aftersale-comp-issue');
    await modal.getByRole('button', { name: /确认赠票/ }).click();
    await page.getByText('已赠票，领取码').waitFor();
    const list = (await asAdmin('GET', `/sessions/${s.sessionId}/comps`)).body.items;
    expect(list).toHaveLength(1);
    expect(list[0].state).toBe('issued');
    expect(list[0].tickets.map((t: { label: string }) => t.label)).toEqual(['A区 1排1座', 'A区 1排2座']);
    await panel.locator('.ant-table-row', { hasText: list[0].claimCode }).getByText('待领取').waitFor();
    await settle();
    await b.shot('aftersale-comp-listed');
  });

  it("sets the show's 转赠规则", async () => {
    await page.goto(url(`/shows/${s.showId}`));
    const card = byTest('transfer-settings');
    await card.waitFor();
    await byTest('transfer-enabled').click();
    await byTest('transfer-cutoff').fill('240');
    await byTest('transfer-save').click();
    await page.getByText('转赠规则已保存').waitFor();
    expect((await asAdmin('GET', `/shows/${s.showId}/transfer-settings`)).body).toMatchObject({
      enabled: true,
      cutoffMinutes: 240,
    });
    await settle();
    await b.shot('aftersale-transfer-rules');
  });

  it("shows a sold-out session's 候补 counts", async () => {
    const one = await createSession(p.deps, { seats: 1 });
    await ticketed('aftersale-holder', one.sessionId, one.seatIds);
    const waiter = await p.login('aftersale-waiter');
    const joined = await p.api.call('POST', `/api/v1/sessions/${one.sessionId}/waitlist`, {
      token: waiter.token,
      body: { tierId: one.tierIds[0], quantity: 1 },
    });
    expect(joined.status).toBe(201);
    await page.goto(url(`/sessions/${one.sessionId}`));
    const panel = byTest('waitlist-panel');
    await panel.waitFor();
    const row = panel.locator('.ant-table-row', { hasText: '看台' });
    expect((await row.locator('td').allInnerTexts()).map((t) => t.trim())).toEqual([
      '看台',
      '1',
      '1',
      '0',
      '0',
      '0',
    ]);
    await settle();
    await b.shot('aftersale-waitlist');
  });

  it("shows an order's 改签 in the order drawer", async () => {
    const x = await createSession(p.deps, { seats: 10 });
    expect(
      (await asAdmin('PATCH', `/shows/${x.showId}`, { exchangeRules: { allowed: true, cutoffMinutes: 60 } }))
        .status,
    ).toBe(200);
    const bought = await ticketed('aftersale-exchanger', x.sessionId, [x.seatIds[0]!]);
    const ex = await p.api.call('POST', `/api/v1/orders/${bought.orderNo}/exchange`, {
      token: bought.fan.token,
      headers: { 'idempotency-key': 'aftersale-exchange-0001' },
      body: {
        ticketIds: [bought.order.items[0].ticketId],
        sessionId: x.sessionId,
        seatIds: [x.seatIds[5]],
      },
    });
    expect(ex.status).toBeLessThan(300);
    expect(ex.body.status).toBe('done'); // the same price: nothing to pay
    await page.goto(url('/orders'));
    await byTest('search-orderNo').fill(bought.orderNo);
    await byTest('search-orders').click();
    await page.locator('tr', { hasText: bought.orderNo }).locator('td').nth(1).click();
    const table = byTest('order-exchanges');
    await table.waitFor();
    await table.getByText(ex.body.orderNo).waitFor();
    await table.getByText('已改签').waitFor();
    await table.scrollIntoViewIfNeeded();
    await settle();
    await b.shot('aftersale-order-exchange');
  });

  it('left no errors in the browser console', () => {
    expect(b.problems).toEqual([]);
  });
});
