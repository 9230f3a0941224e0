/**
 * The compiled staff scan page (dist/weapp, staff sub-package) in miniprogram-simulate, with a
 * wx that has no TextEncoder, TextDecoder or atob (as WeChat): setup, wx.scanCode with a green
 * result and the camera reopened after "继续检票", manual entry of a ticket number with its second
 * factor and a red result, and an offline admission verified on the phone (the server's binding
 * and the fan phone's signature over the current step, public keys only) and synced when the
 * network is back.
 */
const {
  calls,
  routes,
  storage,
  scans,
  setNetwork,
  openPage,
  until,
  reset,
  byClass,
  fire,
  text,
} = require('./mp');
const { keyPair, ticket, qrAt, spokenAt, bundle } = require('../support/tickets');

const SESSION = '7';
const T1 = 'TABCDEFGHJKLMNPQRSTU';
const T2 = 'T23456789ABCDEFGHJKL';
const keys = keyPair();
const t1 = ticket(keys, T1, SESSION);
const t2 = ticket(keys, T2, SESSION);
const SETUP = {
  showId: '3',
  showTitle: '星河巡回演唱会',
  sessionId: SESSION,
  startsAt: '2027-01-15T11:30:00.000Z',
  gate: '东1门',
};

beforeEach(() => {
  reset();
  storage.set('showtix.token', 'tok');
  routes.set(`GET /api/v1/staff/sessions/${SESSION}/offline-bundle`, bundle(keys, SESSION, [t1, t2]));
});

const posted = (key) => calls.request.filter((r) => r.key === key);

/** The desk of SETUP, the server answering every check-in with `answer`. */
function openDesk(answer) {
  storage.set('showtix.gate.setup', JSON.stringify(SETUP));
  routes.set('POST /api/v1/checkin', answer);
  return openPage('packages/staff/scan/index');
}

test('setup: the staff member picks a session of an assigned show and names the gate', async () => {
  routes.set('GET /api/v1/staff/me', { shows: [{ id: '3', title: '星河巡回演唱会' }] });
  routes.set('GET /api/v1/shows/3', {
    id: '3',
    title: '星河巡回演唱会',
    venueName: '梅奔',
    venue: { name: '梅赛德斯-奔驰文化中心' },
    sessions: [{ id: SESSION, startsAt: SETUP.startsAt, realName: true }],
  });
  const page = openPage('packages/staff/scan/index');
  await until(() => byClass(page, 'choice').length === 1, 'the session list');
  expect(text(page, 'choice__sub')).toBe('梅赛德斯-奔驰文化中心 · 实名制');
  fire(page, 'choice', 'tap');
  fire(page, 'field__input', 'input', { detail: { value: '东1门' } });
  await until(() => byClass(page, 'choice--on').length === 1, 'the session picked');
  fire(page, 'setup__start', 'tap');
  await until(() => byClass(page, 'desk__title').length, 'the desk');
  expect(text(page, 'desk__sub')).toBe('2027.01.15 周五 19:30 · 入口 东1门');
  expect(JSON.parse(storage.get('showtix.gate.setup'))).toMatchObject({ sessionId: SESSION, gate: '东1门' });
  page.detach();
});

test('a camera scan shows the big green screen with the attendee; 继续检票 opens the camera again', async () => {
  scans.push('STX3:SCANNED-CODE');
  const page = openDesk({
    result: 'admitted',
    ticketId: T1,
    seat: '内场A区 3排12座',
    attendee: { name: '张*', idNumber: '110***********002X' },
    gateCount: 41,
  });
  await until(() => text(page, 'desk__meta').startsWith('离线数据 2 张'), 'the offline bundle');
  expect(text(page, 'chip-net')).toBe('● 在线');

  fire(page, 'desk__scan', 'tap');
  await until(() => byClass(page, 'result--ok').length, 'the green result');
  expect(calls.scan[0]).toEqual(['qrCode']);
  expect(posted('POST /api/v1/checkin')[0].data).toEqual({
    qr: 'STX3:SCANNED-CODE',
    gate: '东1门',
    sessionId: SESSION,
  });
  expect(posted('POST /api/v1/checkin')[0].header['X-Device-Id']).toMatch(/^dev-/);
  expect(text(page, 'result__title')).toBe('已入场');
  expect(text(page, 'result__seat')).toBe('内场A区 3排12座');
  expect(text(page, 'result__person')).toBe('张*');
  expect(text(page, 'result__idno')).toBe('110***********002X');
  expect(text(page, 'result__count')).toBe('本入口已入场 41 人');
  expect(text(page, 'result__next')).toBe('核对无误，继续检票');
  expect(calls.vibrate).toEqual(['short']);
  expect(calls.audio).toEqual(['wxfile://usr/showtix-gate-ok.wav']);

  fire(page, 'result__next', 'tap');
  await until(() => calls.scan.length === 2, 'the camera again');
  await until(() => byClass(page, 'result').length === 0, 'the result closed');
  expect(text(page, 'desk__count-num')).toBe('41');
  page.detach();
});

test('manual entry: a ticket number and the spoken code; a used ticket is red with when, where and by whom', async () => {
  const page = openDesk({
    result: 'already_used',
    ticketId: T2,
    seat: '内场A区 3排13座',
    usedAt: '2027-01-15T11:02:05.000Z',
    gate: '西2门',
    usedBy: '88',
  });
  await until(() => byClass(page, 'desk__no-input').length, 'the desk');
  fire(page, 'desk__no-input', 'input', { detail: { value: 'tabc' } });
  fire(page, 'desk__check-no', 'tap');
  await until(() => text(page, 'desk__hint'), 'the format hint');
  expect(text(page, 'desk__hint')).toBe('票号格式不正确：T 开头，共 20 位');

  fire(page, 'desk__no-input', 'input', { detail: { value: T2.toLowerCase() } });
  fire(page, 'desk__check-no', 'tap');
  await until(() => text(page, 'desk__hint').includes('人工核验码'), 'the second-factor hint');
  expect(posted('POST /api/v1/checkin')).toHaveLength(0); // a number alone is not even sent
  const spoken = spokenAt(t2, Date.now());
  fire(page, 'desk__no-input', 'input', { detail: { value: spoken } }, 1);
  fire(page, 'desk__check-no', 'tap');
  await until(() => byClass(page, 'result--bad').length, 'the red result');
  expect(posted('POST /api/v1/checkin')[0].data).toEqual({
    ticketNo: T2,
    spokenCode: spoken,
    gate: '东1门',
    sessionId: SESSION,
  });
  expect(text(page, 'result__title')).toBe('重复入场');
  expect(text(page, 'result__why')).toBe('已入场：此票已检票入场，请勿重复放行');
  expect(byClass(page, 'result__line').map((e) => e.textContent)).toEqual([
    `票号 ${T2}`,
    '首次入场：01月15日 19:02:05',
    '入口：西2门',
    '核验人：工作人员 #88',
  ]);
  expect(calls.vibrate).toEqual(['long']);
  fire(page, 'result__next', 'tap');
  await until(() => byClass(page, 'result').length === 0, 'the result closed');
  page.detach();
});

test('offline: the phone verifies the signed rotating code, admits, refuses a second use, and syncs', async () => {
  let down = false;
  routes.set('POST /api/v1/checkin/sync', (req) => ({
    statusCode: 200,
    data: { items: req.data.checkins.map((c) => ({ ticketNo: c.ticketNo, result: 'already_used' })) },
  }));
  const page = openDesk(() => (down ? { fail: true } : { statusCode: 500, data: {} }));
  await until(() => text(page, 'desk__meta').startsWith('离线数据 2 张'), 'the offline bundle');
  // What verified the codes is the app's own polyfill (mp.js took the engine's away).
  expect(global.TextEncoder).not.toBe(require('node:util').TextEncoder);
  expect(new global.TextEncoder().encode('检票')).toEqual(new Uint8Array([230, 163, 128, 231, 165, 168]));

  down = true;
  scans.push(qrAt(t1, Date.now()));
  fire(page, 'desk__scan', 'tap');
  await until(() => byClass(page, 'result--ok').length, 'the offline admission');
  expect(text(page, 'result__badge')).toBe('离线核验 · 联网后自动同步');
  expect(text(page, 'chip-net')).toBe('● 离线');
  const b = bundle(keys, SESSION, [t1, t2]);
  expect(JSON.parse(storage.get('showtix.gate.pending'))).toEqual([
    {
      sessionId: SESSION,
      gate: '东1门',
      bundle: b.token,
      ticketNo: T1,
      scannedAt: expect.any(String),
      code: expect.stringMatching(/^STX3:/),
    },
  ]);
  fire(page, 'result__next', 'tap'); // the camera is cancelled (no code queued)
  await until(() => byClass(page, 'result').length === 0, 'the result closed');
  expect(text(page, 'desk__pending')).toBe('待同步 1 条 · 立即同步');

  scans.push(qrAt(t1, Date.now()));
  fire(page, 'desk__scan', 'tap');
  await until(() => byClass(page, 'result--bad').length, 'the second use refused');
  expect(text(page, 'result__title')).toBe('重复入场');
  expect(text(page, 'result__line', 3)).toBe('核验人：本机');
  fire(page, 'result__next', 'tap');

  // A screenshot of an old code is refused without the network too.
  scans.push(qrAt(t2, Date.now() - 120_000));
  fire(page, 'desk__scan', 'tap');
  await until(() => text(page, 'result__title') === '二维码已过期', 'the stale code refused');
  fire(page, 'result__next', 'tap');

  // A code made by another phone over t2's binding (a forwarded binding, a scalper's page).
  scans.push(qrAt({ ...t2, device: require('../support/tickets').device() }, Date.now()));
  fire(page, 'desk__scan', 'tap');
  await until(() => text(page, 'result__title') === '非本人手机', 'the foreign phone refused');
  fire(page, 'result__next', 'tap');

  down = false;
  setNetwork('none');
  setNetwork('wifi');
  await until(() => byClass(page, 'sync').length, 'the sync report');
  expect(posted('POST /api/v1/checkin/sync')[0].data).toEqual({
    gate: '东1门',
    sessionId: SESSION,
    bundle: b.token,
    checkins: [{ ticketNo: T1, scannedAt: expect.any(String), code: expect.stringMatching(/^STX3:/) }],
  });
  expect(text(page, 'sync__why')).toBe('已在其他入口先行入场（重复使用）');
  expect(storage.has('showtix.gate.pending')).toBe(false);
  page.detach();
});
