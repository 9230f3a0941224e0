import pino from 'pino';
import type { RowDataPacket } from 'mysql2/promise';
import { closeDeps, createDeps, type AppDeps } from '../../src/wiring';
import { createSession, createUsers, type SessionFixture } from '../helpers/fixtures';
import { adminHarness, auditRows, type AdminHarness } from '../admin/helpers';

/**
 * Degradation switches: each one flipped from the admin API by an operator, audited, applied by
 * this instance at once and by another instance (same database and Redis) within moments.
 */
let h: AdminHarness;
let other: AppDeps;
let operator: string;
let s: SessionFixture;

beforeAll(async () => {
  h = await adminHarness({ RATE_PURCHASE_USER: '1000/1', RATE_QUEUE_USER: '1000/1' });
  other = await createDeps(h.env.config, { clock: h.env.clock, log: pino({ level: 'silent' }) });
  operator = await h.tokenWithRoles(['operator']);
  s = await createSession(h.env.deps, { seats: 20 });
});
afterAll(async () => {
  await closeDeps(other);
  await h.close();
});

const flip = (body: unknown, token = operator) => h.as(token)('PUT', '/api/v1/admin/degrade', body);

async function soon(what: string, fn: () => boolean, ms = 2_000): Promise<void> {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('seat states less often', () => {
  it('raises the poll interval every instance tells clients, audited, and lowers it again', async () => {
    const poll = async () =>
      (await h.api.call('GET', `/api/v1/sessions/${s.sessionId}/seat-states`)).body.pollAfterMs;
    expect(await poll()).toBe(4_000);
    const r = await flip({ name: 'seat_poll', pollMs: 15_000, reason: '开票高峰' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ seatPollMs: 15_000, items: [{ name: 'seat_poll', value: 15_000 }] });
    expect(await poll()).toBe(15_000);
    // Another instance hears it through the invalidation channel (well before its 5 s re-read).
    await soon('the other instance raises it', () => other.degrade.seatPollMs() === 15_000);
    const [entry] = await auditRows(h, 'degrade.on');
    expect(entry).toMatchObject({ entity_type: 'degrade_switch', entity_id: 'seat_poll' });
    expect(JSON.parse(entry!.after_json)).toEqual({ value: 15_000, reason: '开票高峰' });

    expect((await flip({ name: 'seat_poll', pollMs: null })).status).toBe(200);
    expect(await poll()).toBe(4_000);
    await soon('the other instance lowers it', () => other.degrade.seatPollMs() === 4_000);
    expect(await auditRows(h, 'degrade.off')).toHaveLength(1);
  });

  it('refuses bad values and other roles, changing nothing', async () => {
    expect((await flip({ name: 'seat_poll', pollMs: 500 })).status).toBe(400);
    expect((await flip({ name: 'nope', on: true })).status).toBe(400);
    const staffManager = await h.tokenWithRoles(['staff_manager']);
    expect((await flip({ name: 'seat_poll', pollMs: 10_000 }, staffManager)).status).toBe(403);
    expect((await h.as(staffManager)('GET', '/api/v1/admin/degrade')).status).toBe(403);
    expect(h.env.deps.degrade.seatPollMs()).toBe(4_000);
  });
});

describe('a session forced through the waiting room', () => {
  it('requires an admission on every instance while on, and not after', async () => {
    const [u1, u2] = await createUsers(h.env.deps, 2, 'dq');
    const fan1 = await h.api.tokenFor(u1!);
    const fan2 = await h.api.tokenFor(u2!);
    const buy = (token: string, seatIds: string[], admissionToken?: string) =>
      h.api.call('POST', '/api/v1/orders', {
        token,
        body: { sessionId: s.sessionId, seatIds, ...(admissionToken ? { admissionToken } : {}) },
      });
    const session = async () => (await h.api.call('GET', `/api/v1/sessions/${s.sessionId}`)).body;
    expect((await session()).queueEnabled).toBe(false);

    expect((await flip({ name: 'force_queue', sessionId: s.sessionId, on: true })).status).toBe(200);
    expect((await session()).queueEnabled).toBe(true);
    const refused = await buy(fan1, [s.seatIds[0]!]);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('QUEUE_REQUIRED');
    await soon(
      'the other instance forces it',
      () => other.degrade.current().forcedQueueSessionIds.length === 1,
    );
    expect((await other.catalog.requireSession(s.sessionId)).queueEnabled).toBe(true);

    // The waiting room works for a session that opened without one.
    // (The lifecycle job ticks every second; here the test ticks.)
    const d = h.env.deps;
    const tick = async () => d.queue.tick(await d.catalog.requireSession(s.sessionId), h.env.clock.now());
    await tick();
    await d.queue.join(u1!, s.sessionId, {}, h.env.clock.now());
    h.env.clock.advance(2_000);
    await tick();
    const st = await d.queue.status(u1!, s.sessionId, h.env.clock.now());
    expect(st.state).toBe('admitted');
    expect((await buy(fan1, [s.seatIds[0]!], st.admissionToken!)).status).toBe(201);

    expect((await flip({ name: 'force_queue', sessionId: s.sessionId, on: false })).status).toBe(200);
    expect((await session()).queueEnabled).toBe(false);
    expect((await buy(fan2, [s.seatIds[1]!])).status).toBe(201);
    const [rows] = await d.db.query<RowDataPacket[]>(
      "SELECT entity_id FROM admin_audit_log WHERE action LIKE 'degrade.%' AND entity_id LIKE 'force_queue:%'",
    );
    expect(rows.map((r) => r.entity_id)).toEqual([
      `force_queue:${s.sessionId}`,
      `force_queue:${s.sessionId}`,
    ]);
  });

  it('answers 404 for a session that does not exist', async () => {
    expect((await flip({ name: 'force_queue', sessionId: '999999', on: true })).status).toBe(404);
  });
});

describe('non-essential endpoints paused', () => {
  it('refuses the order export (and poster uploads) with 503 FEATURE_PAUSED while on', async () => {
    const exportCall = () => h.as(operator)('GET', '/api/v1/admin/orders/export?format=csv');
    expect((await exportCall()).status).toBe(200);
    expect((await flip({ name: 'pause_nonessential', on: true, reason: '高峰期' })).status).toBe(200);
    const paused = await exportCall();
    expect(paused.status).toBe(503);
    expect(paused.body.error.code).toBe('FEATURE_PAUSED');
    expect(paused.headers.get('retry-after')).toBe('60');
    const upload = await h.as(operator)('POST', '/api/v1/admin/uploads/poster');
    expect(upload.body.error.code).toBe('FEATURE_PAUSED');
    // The purchase path and the admin's other pages are untouched.
    expect((await h.as(operator)('GET', '/api/v1/admin/degrade')).body.pauseNonEssential).toBe(true);
    expect((await h.api.call('GET', `/api/v1/sessions/${s.sessionId}/seat-states`)).status).toBe(200);
    await soon('the other instance pauses them', () => other.degrade.nonEssentialPaused());
    expect((await flip({ name: 'pause_nonessential', on: false })).status).toBe(200);
    expect((await exportCall()).status).toBe(200);
  });
});
