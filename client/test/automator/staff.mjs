/**
 * (c) The staff scan page (packages/staff/scan) in WeChat DevTools: a staff member assigned to
 * the show (the staff_assignments row gate.test.mjs makes) opens 检票工作台 from 我的, picks the
 * session and a gate, and scans with the camera (wx.scanCode mocked to answer the codes queued):
 * the fan's ticket as the fan's phone shows it now → green 已入场; the same code again → red
 * 重复入场 (已入场：此票已检票入场); a ticket of another show → 非本场票.
 */
import assert from 'node:assert/strict';
import { mintFanToken } from '../harness/stack.mjs';
import {
  api,
  buyThroughApi,
  liveCode,
  mockCamera,
  queueScans,
  selectorsByPage,
  tapText,
  until,
  useToken,
  waitPage,
  waitText,
} from './lib.mjs';

export const SELECTORS = selectorsByPage({
  'pages/tickets/index': ['.live-qr'],
  'pages/me/index': [['.me-item', '检票工作台']],
  'packages/staff/scan/index': [
    '.choice',
    '.field__input',
    ['.setup__start', '开始检票'],
    ['.desk__scan', '扫码检票'],
    '.result--ok',
    '.result--bad',
    '.result__title',
    ['.result__why', '已入场：此票已检票入场'],
    '.result__next',
  ],
});

const GATE = '东1门';

/** The title of the result the desk shows now, once it is of the wanted colour. */
async function resultTitle(page, cls, what) {
  const el = await until(async () => await page.$(cls), what, 30_000);
  return (await (await el.$('.result__title')).text()).trim();
}

/** A ticket of another show for the same fan, bound to this phone by opening 票夹. */
async function otherShowTicket(miniProgram, stack, seeded, fan) {
  await buyThroughApi(stack, fan.token, seeded.otherSessionId, 1);
  const wallet = await miniProgram.reLaunch('/pages/tickets/index');
  await until(async () => (await wallet.$$('.live-qr')).length >= 2, 'the other show’s ticket in 票夹');
  return until(async () => {
    const { items } = await api(stack.apiUrl, fan.token, 'GET', '/api/v1/tickets');
    return items.find((t) => String(t.sessionId) === String(seeded.otherSessionId) && t.binding);
  }, 'the other show’s ticket bound to this phone');
}

export async function staff({ miniProgram, stack, seeded, fan, bought }) {
  const ticket = bought.tickets[0];
  const other = await otherShowTicket(miniProgram, stack, seeded, fan);

  const staffUser = await mintFanToken(stack, 'automator-staff');
  await stack.deps.db.query(
    "INSERT INTO staff_assignments (user_id, show_id, created_by, created_at) VALUES (?, ?, 'automator', NOW(3))",
    [staffUser.userId, seeded.showId],
  );
  await useToken(miniProgram, staffUser.token);
  await mockCamera(miniProgram);
  const me = await miniProgram.reLaunch('/pages/me/index');
  await tapText(me, '.me-item', '检票工作台');
  const desk = await waitPage(miniProgram, 'packages/staff/scan/index');
  await (await waitText(desk, '.choice')).tap();
  await (await desk.$('.field__input')).input(GATE);
  await tapText(desk, '.setup__start', '开始检票');
  await waitText(desk, '.desk__scan', '扫码检票');

  // The fan's code as their phone makes it now: admitted (green). The page reopens the camera
  // 1.2 s after an admission without attendee; the empty queue then closes it again.
  await queueScans(miniProgram, [liveCode(ticket, bought.seed)]);
  await tapText(desk, '.desk__scan', '扫码检票');
  assert.equal(await resultTitle(desk, '.result--ok', 'green 已入场'), '已入场');
  // Queue the next code only once that reopened camera has come and gone, or it would take it.
  await until(async () => !(await desk.$('.result--ok')), 'the desk back from its own camera reopen');
  await desk.waitFor(300);

  // The same code again: refused as already used (red), with its reason.
  await queueScans(miniProgram, [liveCode(ticket, bought.seed)]);
  await tapText(desk, '.desk__scan', '扫码检票');
  assert.equal(await resultTitle(desk, '.result--bad', 'red 重复入场'), '重复入场');
  await waitText(desk, '.result__why', '已入场：此票已检票入场');

  // 下一位 reopens the camera: a ticket of another show.
  await queueScans(miniProgram, [liveCode(other, bought.seed)]);
  await (await desk.$('.result__next')).tap();
  assert.equal(
    await until(async () => {
      const t = await resultTitle(desk, '.result--bad', 'red 非本场票');
      return t === '重复入场' ? undefined : t;
    }, '非本场票'),
    '非本场票',
  );
  const [rows] = await stack.deps.db.query(
    'SELECT t.ticket_no, c.gate FROM checkins c JOIN tickets t ON t.id = c.ticket_id',
  );
  assert.deepEqual(
    rows.map((r) => [r.ticket_no, r.gate]),
    [[ticket.ticketId, GATE]],
  );
  console.log(`staff: ${ticket.ticketId} 已入场 at ${GATE}, then 重复入场; the other show's ticket 非本场票`);
}
