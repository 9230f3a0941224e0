/**
 * axe-core on the fan's main pages of the H5 build: home, show detail, seat map (both the seat
 * and the standing-zone views), 我的, orders and the ticket wallet. No serious or critical finding
 * may stand (contrast, names of controls, roles).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, openPage, seatMapReady, settle } from '../harness/browser.mjs';
import { mintFanToken } from '../harness/stack.mjs';
import { seedShow } from '../harness/seed.mjs';
import { browserSuite } from '../harness/suite.mjs';

let stack;
let seeded;

const { fan } = browserSuite({ tag: 'e2e_a11y' }, async (started) => {
  stack = started;
  seeded = await seedShow(stack.deps, { standing: true }); // a mixed session: seats and a standing zone
});

async function clean(page, what) {
  await settle(page);
  const found = await axeViolations(page);
  assert.deepEqual(found, [], `${what}: ${JSON.stringify(found, null, 1)}`);
}

test('the browsing pages have no serious accessibility findings', async () => {
  const { page, errors } = await fan();
  await openPage(page, stack.appUrl, 'index');
  await page.getByTestId('show-card').first().waitFor();
  await clean(page, 'home');
  await openPage(page, stack.appUrl, 'show', { id: seeded.showId });
  await page.getByTestId('session-card').first().waitFor();
  await clean(page, 'show detail');
  await page.getByTestId('buy-button').click();
  await seatMapReady(page);
  await clean(page, 'seat map');
  await page.getByTestId('seating-zones').click();
  await page.getByTestId('zone-option').first().waitFor();
  await clean(page, 'seat map, standing zones');
  assert.deepEqual(errors, []);
});

test("a fan's own pages have no serious accessibility findings", async () => {
  const { token } = await mintFanToken(stack, 'a11y-fan');
  const { page, errors } = await fan({ token });
  await openPage(page, stack.appUrl, 'me');
  await page.getByTestId('me-orders').waitFor();
  await clean(page, '我的');
  await openPage(page, stack.appUrl, 'orders');
  await page.getByText('还没有订单').or(page.getByTestId('order-card').first()).waitFor();
  await clean(page, 'orders');
  await openPage(page, stack.appUrl, 'tickets');
  await page.getByText('票夹空空').waitFor();
  await clean(page, 'tickets');
  assert.deepEqual(errors, []);
});
