/**
 * The waiting room end to end in the H5 build against the real server (its queue-admit job
 * lets 600 fans a minute in), MySQL, Redis and the WeChat simulator:
 *   - a fan taps 选座购买 on a queue-enabled session, lands on the queue page behind 60 fans,
 *     sees the place, the people ahead and who is being let in, is admitted by the server's
 *     job and moved on to the seat map by the app, and submits an order carrying the admission
 *     token (the turn's time left on the seat map and 确认订单);
 *   - a fan who opens the seat map without a turn is sent to the queue page.
 * Screenshots: test-artifacts/client/queue-*.png.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fillContactPhone,
  openPage,
  pickSeatsNearCentre,
  screenshot,
  seatMapReady,
  waitForTestId,
} from '../harness/browser.mjs';
import { api, mintFanToken, until } from '../harness/stack.mjs';
import { seedShow } from '../harness/seed.mjs';
import { browserSuite } from '../harness/suite.mjs';

const TITLE = '极光乐队 2027 巡回演唱会 · 成都站';
const AHEAD = 60;

let stack;
let seeded;

const { fan } = browserSuite({ tag: 'e2e_queue' }, async (started) => {
  stack = started;
  seeded = await seedShow(stack.deps, { title: TITLE, queueEnabled: true, queueRatePerMin: 600 });
});

const join = (token) => api(stack, token, 'POST', `/api/v1/sessions/${seeded.sessionId}/queue/join`, {});

test('a fan queues, is admitted by the server, lands on the seat map and orders with the admission token', async () => {
  const { page, errors } = await fan();
  await openPage(page, stack.appUrl, 'show', { id: seeded.showId });
  await page.getByTestId('session-card').getByText('排队购票').waitFor();
  // Fans ahead in line, once the queue-admit job has opened the queue (joins before that are
  // drawn in random order with everyone else in the pre-sale pool).
  const probe = await mintFanToken(stack, 'queue-ahead-0');
  await until(
    async () => !['presale', 'shuffling'].includes((await join(probe.token)).state),
    'the queue open',
    20_000,
  );
  for (let i = 1; i < AHEAD; i++) await join((await mintFanToken(stack, `queue-ahead-${i}`)).token);

  await page.getByTestId('buy-button').click();
  const waiting = page.locator('[data-testid=queue-page][data-view=waiting]');
  await waiting.waitFor({ timeout: 20_000 });
  const position = Number((await page.getByTestId('queue-position').innerText()).replace(/,/g, ''));
  assert.equal(position, AHEAD + 1, 'behind the fans who joined first');
  assert.match(await page.getByTestId('queue-ahead').innerText(), /^\d+ 人$/);
  assert.match(await page.getByTestId('queue-admitting').innerText(), /^(正在放行第 \d+ 位|即将开始放行)$/);
  await screenshot(page, 'queue-01-waiting');

  // Each poll waits the server's pollAfterMs; the queue-admit job lets 10 fans in a second.
  const polls = [];
  page.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname.endsWith('/queue')) polls.push(Date.now());
  });
  await page.waitForURL(/#\/pages\/seatmap\/index\?/, { timeout: 30_000 });
  assert.ok(page.url().includes(`sessionId=${seeded.sessionId}`), page.url());
  for (let i = 1; i < polls.length; i++)
    assert.ok(polls[i] - polls[i - 1] >= 1_900, `polls ${polls.join(',')}`);
  const token = await page.evaluate(
    (sid) => JSON.parse(JSON.parse(localStorage.getItem(`showtix.queue.${sid}`)).data).admissionToken,
    seeded.sessionId,
  );
  assert.ok(token, 'the admission token is kept');

  await seatMapReady(page);
  await page.getByTestId('turn-timer').getByText('已轮到您，剩余购票时间').waitFor();
  await screenshot(page, 'queue-02-seatmap-turn');
  await pickSeatsNearCentre(page, 2);
  await page.getByTestId('confirm-seats').click();
  await page.getByTestId('order-line').nth(1).waitFor();
  await page.locator('.confirm [data-testid=turn-timer]').waitFor();
  await screenshot(page, 'queue-03-confirm-turn');

  const sent = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/orders',
  );
  await fillContactPhone(page);
  await page.getByTestId('submit-order').click();
  const body = (await sent).postDataJSON();
  assert.equal(body.admissionToken, token);
  assert.equal(body.contactPhone, '13800138000');
  await page.waitForURL(`${stack.sim.url}/sim/cashier**`); // one tap: straight to the cashier
  await page.goBack();
  await page.getByTestId('hold-timer').waitFor();
  const fanToken = await page.evaluate(() => JSON.parse(localStorage.getItem('showtix.token')).data);
  const { items } = await api(stack, fanToken, 'GET', '/api/v1/orders');
  assert.deepEqual(
    items.map((o) => [o.status, o.items.length]),
    [['pending', 2]],
  );
  await screenshot(page, 'queue-04-held');
  assert.deepEqual(errors, [], `page errors: ${errors.join('; ')}`);
});

test('a fan who opens the seat map without a turn is sent to the queue page', async () => {
  const { token } = await mintFanToken(stack, 'queue-deep-link');
  const { page, errors } = await fan({ token });
  await openPage(page, stack.appUrl, 'seatmap', { sessionId: seeded.sessionId, showId: seeded.showId });
  await page.waitForURL(/#\/pages\/queue\/index\?/, { timeout: 15_000 });
  await waitForTestId(page, 'queue-page');
  assert.deepEqual(errors, [], `page errors: ${errors.join('; ')}`);
});
