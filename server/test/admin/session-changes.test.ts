import { createSession } from '../helpers/fixtures';
import { adminHarness, auditRows, type AdminHarness } from './helpers';

/** The organiser's 取消场次 / 延期场次 over HTTP: roles, audit, and every refusal with a clear code. */
let h: AdminHarness;
let op: ReturnType<AdminHarness['as']>;
let staffManager: ReturnType<AdminHarness['as']>;
const day = 86_400_000;
const at = (days: number) => new Date(h.env.clock.now().getTime() + days * day).toISOString();

beforeAll(async () => {
  h = await adminHarness();
  op = h.as(await h.tokenWithRoles(['operator']));
  staffManager = h.as(await h.tokenWithRoles(['staff_manager']));
});
afterAll(() => h.close());

it('cancels a session once, audited; an ended or cancelled session is refused with SESSION_STATE_INVALID', async () => {
  const s = await createSession(h.env.deps, { seats: 4 });
  expect(
    (await staffManager('POST', `/api/v1/admin/sessions/${s.sessionId}/cancel`, { reason: 'x' })).status,
  ).toBe(403);
  const bad = await op('POST', `/api/v1/admin/sessions/${s.sessionId}/cancel`, {});
  expect(bad.status).toBe(400);
  expect(bad.body.error.code).toBe('VALIDATION_FAILED');
  const r = await op('POST', `/api/v1/admin/sessions/${s.sessionId}/cancel`, { reason: '艺人身体原因' });
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ kind: 'cancel', reason: '艺人身体原因', fenToRefund: 0 });
  // The Redis gate is closed: no purchase gets past it.
  expect(await h.env.deps.redis.hget(h.env.deps.keys.session(s.sessionId).meta, 'open')).toBe('0');
  expect((await auditRows(h, 'session.cancel')).map((a) => a.entity_id)).toContain(s.sessionId);
  const again = await op('POST', `/api/v1/admin/sessions/${s.sessionId}/cancel`, { reason: '再来一次' });
  expect(again.status).toBe(409);
  expect(again.body.error).toMatchObject({ code: 'SESSION_STATE_INVALID', details: { status: 'cancelled' } });
  expect(again.body.error.message).toContain('已取消');
  const postpone = await op('POST', `/api/v1/admin/sessions/${s.sessionId}/postpone`, {
    startsAt: at(60),
    refundUntil: at(10),
  });
  expect(postpone.body.error.code).toBe('SESSION_STATE_INVALID');
  const list = await op('GET', `/api/v1/admin/sessions/${s.sessionId}/changes`);
  expect(list.body.items).toHaveLength(1);
  expect((await op('GET', `/api/v1/admin/sessions/${s.sessionId}`)).body.status).toBe('cancelled');

  const ended = await createSession(h.env.deps, { seats: 2 });
  await op('POST', `/api/v1/admin/sessions/${ended.sessionId}/end`);
  const refused = await op('POST', `/api/v1/admin/sessions/${ended.sessionId}/cancel`, { reason: '太晚了' });
  expect(refused.status).toBe(409);
  expect(refused.body.error).toMatchObject({ code: 'SESSION_STATE_INVALID', details: { status: 'ended' } });
  expect((await op('POST', '/api/v1/admin/sessions/999999999/cancel', { reason: 'x' })).status).toBe(404);
});

it('postpones with the date checks: later than before, window open now and closing before the new date', async () => {
  const s = await createSession(h.env.deps, { seats: 2 });
  const path = `/api/v1/admin/sessions/${s.sessionId}/postpone`;
  const code = async (body: object) => {
    const r = await op('POST', path, body);
    return [r.status, r.body.error?.code, r.body.error?.details?.field];
  };
  expect(await code({ startsAt: at(60) })).toEqual([400, 'VALIDATION_FAILED', undefined]);
  expect(await code({ startsAt: at(10), refundUntil: at(5) })).toEqual([
    400,
    'VALIDATION_FAILED',
    'startsAt',
  ]);
  expect(await code({ startsAt: at(60), refundUntil: at(61) })).toEqual([
    400,
    'VALIDATION_FAILED',
    'refundUntil',
  ]);
  expect(await code({ startsAt: at(60), refundUntil: at(-1) })).toEqual([
    400,
    'VALIDATION_FAILED',
    'refundUntil',
  ]);
  const ok = await op('POST', path, { startsAt: at(60), refundUntil: at(20), reason: '场馆调整' });
  expect(ok.status).toBe(200);
  expect(ok.body).toMatchObject({ kind: 'postpone', newStartsAt: at(60), refundUntil: at(20) });
  expect((await auditRows(h, 'session.postpone')).map((a) => a.entity_id)).toContain(s.sessionId);
  const fan = await h.api.call('GET', `/api/v1/sessions/${s.sessionId}`);
  expect(fan.body).toMatchObject({ startsAt: at(60), fullRefundUntil: at(20) });
});
