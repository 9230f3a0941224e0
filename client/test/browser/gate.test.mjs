/**
 * Gate check-in end to end in the H5 build against the real server, MySQL, Redis and the WeChat
 * simulator, in two browser contexts:
 *   - a fan picks three seats of a real-name session, fills the attendees from 常用观演人, pays in
 *     the simulator's cashier and opens 我的票夹: the tickets are bound to a key made in this
 *     browser, and show device-signed rotating QR codes (data-qr) and spoken digits;
 *   - a staff member (assigned to the show) finds 检票工作台 under 我的, picks the session and
 *     the gate, pastes the fan's current QR: green 已入场 with the masked attendee; pastes it
 *     again: red 重复入场 with the gate and the time;
 *   - manual entry: the second ticket's number alone is not even sent; with the digits the fan's
 *     phone shows (read aloud) it is admitted;
 *   - the staff phone loses the network: the third ticket is verified and admitted offline
 *     from the downloaded bundle (public keys only), and synced when the network is back;
 *   - the fan's wallet shows the tickets 已入场 with the time.
 * Screenshots: test-artifacts/client/gate-*.png.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fillContactPhone,
  openPage,
  pickSeatsNearCentre,
  screenshot,
  seatMapReady,
} from '../harness/browser.mjs';
import { mainlandId } from '../harness/ids.mjs';
import { api, mintFanToken, until } from '../harness/stack.mjs';
import { seedShow } from '../harness/seed.mjs';
import { browserSuite } from '../harness/suite.mjs';

const TITLE = '城市之光交响音乐会 2027 · 广州站';
const GATE = '东1门';

let stack;
let seeded;

const { fan: openFan } = browserSuite({ tag: 'e2e_gate' }, async (started) => {
  stack = started;
  seeded = await seedShow(stack.deps, { title: TITLE, realName: true });
});

/** The ticket's QR as the fan's page shows it right now. */
const liveQr = (page, ticketId) =>
  page
    .getByTestId('ticket')
    .filter({ hasText: `票号 ${ticketId}` })
    .getByTestId('live-qr')
    .getAttribute('data-qr');

async function paste(staff, qr) {
  await staff.getByTestId('scan-input').locator('input').fill(qr);
  await staff.getByTestId('scan-submit').click();
  return staff.getByTestId('scan-result');
}

test('a bought ticket is admitted once at the gate, refused the second time, and checked offline when the network drops', async () => {
  // The fan, with two frequent attendees saved.
  const fanUser = await mintFanToken(stack, 'gate-fan');
  for (const [name, id] of [
    ['王小明', mainlandId('19950312', 321)],
    ['陈静', mainlandId('19970708', 654)],
    ['李雷', mainlandId('19900101', 111)],
  ])
    await api(stack, fanUser.token, 'POST', '/api/v1/me/attendees', {
      name,
      idType: 'id_card',
      idNumber: id,
    });
  const fan = await openFan({ token: fanUser.token });
  const { page } = fan;

  await openPage(page, stack.appUrl, 'seatmap', { sessionId: seeded.sessionId, showId: seeded.showId });
  await seatMapReady(page);
  await pickSeatsNearCentre(page, 3);
  await page.getByTestId('confirm-seats').click();
  await page.getByTestId('saved-open').click();
  await page.getByTestId('saved-chip').nth(2).waitFor();
  await page.getByTestId('saved-chip').nth(0).click();
  await page.getByTestId('saved-chip').nth(1).click();
  await page.getByTestId('saved-chip').nth(2).click();
  await fillContactPhone(page);
  await screenshot(page, 'gate-01-confirm-saved-attendees');
  await page.getByTestId('submit-order').click(); // one tap: straight to the cashier
  await page.waitForURL(`${stack.sim.url}/sim/cashier**`);
  await page.getByTestId('cashier-confirm').click();
  await page.locator('[data-testid=order-status][data-status=ticketed]').waitFor({ timeout: 30_000 });
  await page.getByText('查看电子票').click();
  await page.getByTestId('live-qr').nth(2).waitFor();
  const { items: tickets } = await api(stack, fanUser.token, 'GET', '/api/v1/tickets');
  assert.equal(tickets.length, 3);
  const [first, second, third] = tickets.map((t) => t.ticketId);
  assert.match(await liveQr(page, first), /^STX3:[0-9A-Z $%*+\-./:]{250,320}$/); // QR alphanumeric mode
  // What the API returns: the binding (public); no secret that could make a code.
  assert.ok(tickets.every((t) => t.binding?.devicePublicKey && !('codeKey' in t) && !('qrSigned' in t)));
  await screenshot(page, 'gate-02-fan-tickets');

  // The staff member: assigned to the show, finds the scanner under 我的.
  const staffUser = await mintFanToken(stack, 'gate-staff');
  await stack.deps.db.query(
    "INSERT INTO staff_assignments (user_id, show_id, created_by, created_at) VALUES (?, ?, 'test', NOW(3))",
    [staffUser.userId, seeded.showId],
  );
  const staffSide = await openFan({ token: staffUser.token });
  const staff = staffSide.page;
  await openPage(staff, stack.appUrl, 'me');
  await staff.getByTestId('me-staff-scan').waitFor();
  await screenshot(staff, 'gate-03-staff-me');
  await staff.getByTestId('me-staff-scan').click();
  await staff.getByTestId('setup-session').first().click();
  await staff.getByTestId('gate-input').locator('input').fill(GATE);
  await staff.getByTestId('setup-start').click();
  await staff.getByTestId('bundle-status').getByText('离线数据 3 张').waitFor();
  await screenshot(staff, 'gate-04-desk');

  // Online: first scan wins, the second is told when and where.
  let result = await paste(staff, await liveQr(page, first));
  await staff.locator('[data-testid=scan-result][data-result=admitted]').waitFor();
  assert.equal(await staff.getByTestId('result-title').innerText(), '已入场');
  assert.match(await staff.getByTestId('result-attendee').innerText(), /王\*[\s\S]*\d{3}\*+\d{3}[\dX]/);
  assert.equal(await staff.getByTestId('result-count').innerText(), '本入口已入场 1 人');
  await screenshot(staff, 'gate-05-admitted');
  await staff.getByTestId('scan-next').click();
  await result.waitFor({ state: 'detached' });

  result = await paste(staff, await liveQr(page, first));
  await staff.locator('[data-testid=scan-result][data-result=already_used]').waitFor();
  assert.equal(await staff.getByTestId('result-title').innerText(), '重复入场');
  const used = await staff.getByTestId('result-used').innerText();
  assert.match(used, /首次入场：\d{2}月\d{2}日 \d{2}:\d{2}:\d{2}/);
  assert.ok(used.includes(`入口：${GATE}`), used);
  await screenshot(staff, 'gate-06-already-used');
  await staff.getByTestId('scan-next').click();
  await result.waitFor({ state: 'detached' });

  // Manual entry: the number alone is refused on the phone; with the fan's spoken digits it admits.
  await staff.getByTestId('ticket-no-input').locator('input').fill(second);
  await staff.getByTestId('ticket-no-submit').click();
  await staff.getByTestId('desk-hint').getByText('人工核验码').waitFor();
  const spoken = (
    await page
      .getByTestId('ticket')
      .filter({ hasText: `票号 ${second}` })
      .getByTestId('spoken-code')
      .innerText()
  ).replace(/\D/g, '');
  assert.match(spoken, /^\d{6}$/);
  await staff.getByTestId('ticket-no-input').locator('input').fill(second);
  await staff.getByTestId('factor-input').locator('input').fill(spoken);
  await staff.getByTestId('ticket-no-submit').click();
  await staff.locator('[data-testid=scan-result][data-result=admitted]').waitFor();
  await screenshot(staff, 'gate-06b-manual-entry');
  await staff.getByTestId('scan-next').click();
  await result.waitFor({ state: 'detached' });

  // Offline: verified on the phone, queued, synced when the network is back.
  await staffSide.context.setOffline(true);
  await staff.getByTestId('net-status').getByText('离线').waitFor();
  result = await paste(staff, await liveQr(page, third));
  await staff.locator('[data-testid=scan-result][data-result=admitted][data-offline="1"]').waitFor();
  await screenshot(staff, 'gate-07-admitted-offline');
  await staff.getByTestId('scan-next').click();
  await result.waitFor({ state: 'detached' });
  await staff.getByTestId('pending-count').getByText('待同步 1 条').waitFor();
  await staffSide.context.setOffline(false);
  await staff
    .getByTestId('sync-report')
    .getByText('确认入场 1 条，无冲突', { exact: false })
    .waitFor({ timeout: 30_000 });
  assert.equal(await staff.getByTestId('pending-count').count(), 0);
  await screenshot(staff, 'gate-08-synced');
  const [rows] = await stack.deps.db.query(
    'SELECT t.ticket_no, c.gate, c.mode, c.kind FROM checkins c JOIN tickets t ON t.id = c.ticket_id ORDER BY c.mode, c.kind',
  );
  assert.deepEqual(
    rows.map((r) => [r.ticket_no, r.gate, r.mode, r.kind]),
    [
      [third, GATE, 'offline', 'qr'],
      [second, GATE, 'online', 'manual_code'],
      [first, GATE, 'online', 'qr'],
    ],
  );

  // The fan's wallet: both admitted, with the time, no code left to show.
  await openPage(page, stack.appUrl, 'tickets');
  await until(
    async () => (await page.locator('[data-testid=ticket][data-status=checked_in]').count()) === 3,
    'the tickets 已入场',
  );
  assert.equal(await page.getByTestId('live-qr').count(), 0);
  assert.match(
    await page.getByTestId('checked-in-at').first().innerText(),
    /^\d{4}\.\d{2}\.\d{2} .+ \d{2}:\d{2} 入场$/,
  );
  await screenshot(page, 'gate-09-fan-checked-in');
  // 常用观演人: the two saved ones, masked.
  await openPage(page, stack.appUrl, 'attendees');
  await page.getByTestId('saved-row').nth(2).waitFor();
  const rows2 = (await page.getByTestId('saved-row').allInnerTexts()).map((t) => t.replace(/\s+/g, ''));
  assert.match(rows2[0], /^王\*明身份证110\*{11}321\d删除$/);
  assert.match(rows2[1], /^陈\*身份证110\*{11}654\d删除$/);
  await screenshot(page, 'gate-10-saved-attendees');
  assert.deepEqual(fan.errors, [], `fan page errors: ${fan.errors.join('; ')}`);
  assert.deepEqual(staffSide.errors, [], `staff page errors: ${staffSide.errors.join('; ')}`);
});
