import { adminHarness, type AdminHarness } from '../admin/helpers';
import { createSession, createUsers, type SessionFixture } from '../helpers/fixtures';

/** Issue 12.3: real-name rules follow the ID number, whatever document type is claimed. */
let h: AdminHarness;
beforeAll(async () => {
  h = await adminHarness({ QUEUE_TURN_MS: String(5 * 60_000), RATE_QUEUE_USER: '1000/1' });
});
afterAll(async () => {
  await h.close();
});

async function realNameSession(queue = false): Promise<SessionFixture> {
  const s = await createSession(h.env.deps, { seats: 10, realName: true });
  await h.env.deps.db.query(
    'UPDATE show_sessions SET queue_enabled = ?, queue_rate_per_min = 6000 WHERE id = ?',
    [Number(queue), s.sessionId],
  );
  h.env.deps.catalog.invalidate(s.sessionId);
  return s;
}

async function buy(s: SessionFixture, seat: number, idType: string, idNumber: string, extra = {}) {
  const [u] = await createUsers(h.env.deps, 1);
  const token = await h.api.tokenFor(u!);
  return h.api.call('POST', '/api/v1/orders', {
    token,
    body: {
      sessionId: s.sessionId,
      seatIds: [s.seatIds[seat]],
      attendees: [{ name: '张三', idType, idNumber }],
      ...extra,
    },
  });
}

it('one number is one person: a Taiwan permit number cannot buy again as a passport', async () => {
  const s = await realNameSession();
  expect((await buy(s, 0, 'taiwan_permit', '12345678')).status).toBe(201);
  const again = await buy(s, 1, 'passport', '12345678');
  expect(again.status).toBe(409);
  expect(again.body.error.code).toBe('ID_TAKEN');
  // Spelling does not make another document either.
  expect((await buy(s, 2, 'hk_macau_permit', 'H1234567-8')).status).toBe(201);
  expect((await buy(s, 3, 'passport', 'h12345678')).body.error.code).toBe('ID_TAKEN');
});

it('a blocked number stays blocked under another document type', async () => {
  const s = await realNameSession();
  const added = await h.as(h.root)('POST', '/api/v1/admin/risk/blocklist', {
    kind: 'id',
    idType: 'taiwan_permit',
    value: '87654321',
    reason: '黄牛',
  });
  expect(added.status).toBe(201);
  const r = await buy(s, 0, 'passport', '87654321');
  expect(r.status).toBe(403);
  expect(r.body.error.code).toBe('BLOCKED');
});

it('checks the form of each document type', async () => {
  const s = await realNameSession();
  for (const [type, number] of [
    ['passport', 'AAAAA'],
    ['passport', '11111111'],
    ['hk_macau_permit', '12345678'],
    ['taiwan_permit', 'T1234567'],
    ['id_card', '110105194912310021'],
  ]) {
    const r = await buy(s, 0, type!, number!);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(r.body.error.details)).toMatch(/格式不正确|校验失败/);
  }
  expect((await buy(s, 0, 'passport', 'E12345678')).status).toBe(201);
});

it('the ID that joined a real-name waiting room must be among the order attendees', async () => {
  const s = await realNameSession(true);
  const q = h.env.deps.queue;
  const tick = async () => q.tick((await h.env.deps.catalog.requireSession(s.sessionId))!, h.env.clock.now());
  await tick();
  const [fan] = await createUsers(h.env.deps, 1);
  await q.join(fan!, s.sessionId, { idType: 'id_card', idNumber: '11010519491231002X' }, h.env.clock.now());
  h.env.clock.advance(1_000);
  await tick();
  const admissionToken = (await q.status(fan!, s.sessionId, h.env.clock.now())).admissionToken!;
  expect(admissionToken).toEqual(expect.any(String));
  const token = await h.api.tokenFor(fan!);
  const order = (idNumber: string, seat: number) =>
    h.api.call('POST', '/api/v1/orders', {
      token,
      body: {
        sessionId: s.sessionId,
        seatIds: [s.seatIds[seat]],
        attendees: [{ name: '李四', idType: 'id_card', idNumber }],
        admissionToken,
      },
    });
  const other = await order('440524188001010014', 0);
  expect(other.status).toBe(403);
  expect(other.body.error.code).toBe('QUEUE_ID_NOT_ATTENDEE');
  expect((await order('11010519491231002X', 1)).status).toBe(201);
});
