/**
 * The compiled queue page (dist/weapp) in miniprogram-simulate: the waiting state from the
 * server's answer, a real-name session joining with a saved attendee's ID, and a finished turn
 * turned over with 重新排队 into an admission that moves on to the seat map by itself.
 */
const { calls, routes, storage, openPage, until, reset, byClass, fire, text } = require('./mp');
const { SESSION } = require('../unit/fixtures');

const status = (over) => ({
  sessionId: '7',
  queueEnabled: true,
  state: 'waiting',
  position: 12_345,
  ahead: 2_344,
  admittedThrough: 10_000,
  admitted: false,
  soldOut: false,
  etaSeconds: 235,
  // Long enough that no poll happens during a test.
  pollAfterMs: 600_000,
  ...over,
});

// The app caches a session's details for a minute: each test has a session of its own.
function serve(id, session) {
  routes.set(`GET /api/v1/sessions/${id}`, { ...SESSION, id, queueEnabled: true, ...session });
  routes.set('GET /api/v1/shows/3', {
    id: '3',
    title: '星河巡回演唱会',
    venueName: '梅奔',
    venue: { name: '梅赛德斯-奔驰文化中心' },
    sessions: [],
  });
}

const joins = (id = '7') => calls.request.filter((r) => r.key === `POST /api/v1/sessions/${id}/queue/join`);

beforeEach(() => {
  reset();
  storage.set('showtix.token', 'tok');
});

test('a fan in line sees the place, the people ahead, who is let in and the wait', async () => {
  serve('7', { realName: false });
  routes.set('POST /api/v1/sessions/7/queue/join', status());
  const page = openPage('pages/queue/index', { sessionId: '7', showId: '3' });
  await until(() => byClass(page, 'pulse__value').length, 'the waiting board');
  expect(text(page, 'queue__title')).toBe('星河巡回演唱会');
  expect(text(page, 'pulse__value')).toBe('12,345');
  expect(byClass(page, 'queue__stat-value').map((e) => e.textContent)).toEqual(['2,344 人', '约 4 分钟']);
  expect(text(page, 'queue__admitting')).toBe('正在放行第 10,000 位');
  expect(joins()[0].data).toEqual({});
  expect(joins()[0].header['X-Device-Id']).toMatch(/^dev-/);
  expect(JSON.parse(storage.get('showtix.queue.7'))).toMatchObject({
    state: 'waiting',
    firstAhead: 2_344,
    join: {},
  });
  page.detach();
});

test('real-name: the fan queues with a saved attendee ID', async () => {
  serve('8', { realName: true });
  routes.set('GET /api/v1/me/attendees', {
    items: [
      {
        id: '5',
        name: '张三',
        idType: 'id_card',
        idNumber: '11010519491231002X',
        nameMasked: '张*',
        idMasked: '110***********002X',
      },
    ],
  });
  routes.set(
    'POST /api/v1/sessions/8/queue/join',
    status({ position: 3, ahead: 2, admittedThrough: 0, etaSeconds: 20 }),
  );
  const page = openPage('pages/queue/index', { sessionId: '8', showId: '3' });
  await until(() => byClass(page, 'choice').length, 'the saved attendees');
  expect(text(page, 'choice__sub')).toBe('身份证 110***********002X');
  fire(page, 'id-picker__go', 'tap');
  await until(() => text(page, 'field__error'), 'asked to pick one');
  fire(page, 'choice', 'tap');
  await until(() => byClass(page, 'choice--on').length, 'picked');
  fire(page, 'id-picker__go', 'tap');
  await until(() => byClass(page, 'pulse__value').length, 'in line');
  expect(joins('8')[0].data).toEqual({ idType: 'id_card', idNumber: '11010519491231002X' });
  expect(text(page, 'queue__admitting')).toBe('即将开始放行');
  expect(text(page, 'queue__stat-value', 1)).toBe('不到 1 分钟');
  page.detach();
});

test('a finished turn offers 重新排队; the admission moves on to the seat map with its token kept', async () => {
  serve('9', { realName: false });
  storage.set('showtix.queue.9', JSON.stringify({ sessionId: '9', join: {}, joinedAt: 1, state: 'expired' }));
  const expiresAt = new Date(Date.now() + 600_000).toISOString();
  routes.set(
    'POST /api/v1/sessions/9/queue/join',
    status({
      sessionId: '9',
      state: 'admitted',
      admitted: true,
      ahead: 0,
      admissionToken: 'adm.tok',
      admissionExpiresAt: expiresAt,
    }),
  );
  const page = openPage('pages/queue/index', { sessionId: '9', showId: '3' });
  await until(() => byClass(page, 'queue__action').length, 'the finished turn');
  expect(text(page, 'queue__headline')).toBe('本轮购票时间已结束');
  expect(joins('9')).toHaveLength(0); // a finished turn is not re-joined without the fan

  fire(page, 'queue__action', 'tap');
  await until(() => calls.navigate.length, 'the seat map');
  expect(calls.navigate).toEqual([['redirectTo', '/pages/seatmap/index?sessionId=9&showId=3']]);
  expect(JSON.parse(storage.get('showtix.queue.9'))).toMatchObject({
    state: 'admitted',
    admissionToken: 'adm.tok',
    admissionExpiresAt: expiresAt,
  });
  page.detach();
});
