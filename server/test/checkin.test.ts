import type { RowDataPacket } from 'mysql2/promise';
import {
  CODE_STEP_MS,
  currentQr,
  verifyOffline,
  type OfflineBundle,
} from '@showtix/shared-types/dist/ticket-code';
import { TicketKeys } from '../src/tickets/keys';
import { createSession, createUsers, type SessionFixture } from './helpers/fixtures';
import { createPayEnv, type PayEnv } from './helpers/pay-env';

/** Gate check-in: rotating signed QR codes, first scan wins, staff only, offline and synced. */
let p: PayEnv;
let s: SessionFixture;
let other: SessionFixture;
let staff: string;
let staffToken: string;
const used = new Map<string, number>();

beforeAll(async () => {
  p = await createPayEnv();
  s = await createSession(p.deps, { seats: 40, refundRules: [{ hoursBeforeStart: 0, feePercent: 0 }] });
  other = await createSession(p.deps, { seats: 5 });
  [staff] = await createUsers(p.deps, 1);
  await p.deps.db.query(
    "INSERT INTO staff_assignments (user_id, show_id, created_by, created_at) VALUES (?, ?, 'test', NOW(3))",
    [staff, s.showId],
  );
  staffToken = await p.api.tokenFor(staff!);
});
afterAll(() => p.close());

interface Ticket {
  ticketId: string;
  qrSigned: string;
  codeKey: string;
  status: string;
  orderNo: string;
}

async function ticketsFor(
  session: SessionFixture,
  n: number,
  realName?: { name: string; idNumber: string }[],
): Promise<{ token: string; tickets: Ticket[] }> {
  const from = used.get(session.sessionId) ?? 0;
  used.set(session.sessionId, from + n);
  const body = {
    sessionId: session.sessionId,
    seatIds: session.seatIds.slice(from, from + n),
    ...(realName ? { attendees: realName.map((a) => ({ ...a, idType: 'id_card' })) } : {}),
  };
  const { fan, orderNo, prepayId } = await p.orderAndPrepay(`openid-gate-${from}-${session.sessionId}`, body);
  p.sim.pay(prepayId);
  const tickets = await p.until(async () => {
    const r = await p.api.call('GET', '/api/v1/tickets', { token: fan.token });
    const mine = r.body.items.filter((t: Ticket) => t.orderNo === orderNo);
    return mine.length === n && mine;
  }, 'tickets');
  return { token: fan.token, tickets };
}

const scan = (qr: string, gate = 'A1', token = staffToken, extra: object = {}) =>
  p.api.call('POST', '/api/v1/checkin', { token, body: { qr, gate, sessionId: s.sessionId, ...extra } });
const bundleOf = async (sessionId = s.sessionId) =>
  (await p.api.call('GET', `/api/v1/staff/sessions/${sessionId}/offline-bundle`, { token: staffToken }))
    .body as OfflineBundle;
const sync = (body: object) => p.api.call('POST', '/api/v1/checkin/sync', { token: staffToken, body });
const now = () => p.clock.now().getTime();
const qrOf = (t: Ticket, at = now()) => currentQr(t.qrSigned, t.codeKey, at);

it('admits once; the second scan is told when, where and by whom it was used', async () => {
  const { tickets } = await ticketsFor(s, 1);
  const first = await scan(qrOf(tickets[0]!), 'A1');
  expect(first.body).toMatchObject({ result: 'admitted', ticketId: tickets[0]!.ticketId, gateCount: 1 });
  const second = await scan(qrOf(tickets[0]!), 'B2');
  expect(second.body).toMatchObject({
    result: 'already_used',
    gate: 'A1',
    usedBy: staff,
    usedAt: expect.any(String),
  });
});

it('two gates scanning one ticket at the same instant admit it once', async () => {
  const { tickets } = await ticketsFor(s, 1);
  const qr = qrOf(tickets[0]!);
  const results = await Promise.all(['A1', 'B2', 'C3', 'D4'].map((g) => scan(qr, g)));
  expect(results.map((r) => r.body.result).sort()).toEqual([
    'admitted',
    'already_used',
    'already_used',
    'already_used',
  ]);
});

it('refuses a flipped payload byte, an unknown key id, an expired window (an old screenshot) and another session', async () => {
  const { tickets } = await ticketsFor(s, 1);
  const t = tickets[0]!;
  const [prefix, payload, sig] = t.qrSigned.split('.');
  const flipped = payload!.slice(0, 5) + (payload![5] === 'A' ? 'B' : 'A') + payload!.slice(6);
  expect((await scan(currentQr(`${prefix}.${flipped}.${sig}`, t.codeKey, now()))).body).toMatchObject({
    result: 'invalid',
    reason: expect.stringMatching(/signature|unreadable/),
  });
  const otherKeys = new TicketKeys('another-secret-that-is-long-enough-0000', ['k9']);
  expect(
    (await scan(currentQr(otherKeys.signedQr(t.ticketId, s.sessionId), t.codeKey, now()))).body,
  ).toMatchObject({ result: 'invalid', reason: 'signature' });
  const screenshot = qrOf(t, now() - 2 * CODE_STEP_MS - 1);
  expect((await scan(screenshot)).body).toMatchObject({ result: 'invalid', reason: 'code expired' });
  expect((await scan(qrOf(t, now() - CODE_STEP_MS))).body.result).toBe('admitted'); // one window of skew is fine
  const forOther = await ticketsFor(s, 1);
  expect(
    (await scan(qrOf(forOther.tickets[0]!), 'A1', staffToken, { sessionId: other.sessionId })).body,
  ).toMatchObject({ result: 'invalid', reason: 'other session' });
});

it('staff only, and only for their shows', async () => {
  const { token, tickets } = await ticketsFor(s, 1);
  expect((await scan(qrOf(tickets[0]!), 'A1', token)).status).toBe(403); // a fan
  const otherShow = await ticketsFor(other, 1);
  expect((await scan(qrOf(otherShow.tickets[0]!))).status).toBe(403); // staff of another show
  expect(
    (
      await p.api.call('GET', `/api/v1/staff/sessions/${other.sessionId}/offline-bundle`, {
        token: staffToken,
      })
    ).status,
  ).toBe(403);
  const admin = await p.api.tokenFor('admin:1', ['admin']);
  expect((await scan(qrOf(tickets[0]!), 'A1', admin)).status).toBe(401); // an admin-page token is no WeChat user
});

it('a refunded ticket is refused online, and offline once the device has the new revocation list', async () => {
  const fan = await ticketsFor(s, 1);
  const t = fan.tickets[0]!;
  const before = (
    await p.api.call('GET', `/api/v1/staff/sessions/${s.sessionId}/offline-bundle`, { token: staffToken })
  ).body as OfflineBundle;
  expect(verifyOffline(before, qrOf(t), now(), new Set()).result).toBe('admitted');
  await p.api.call('POST', `/api/v1/orders/${t.orderNo}/refund`, { token: fan.token, body: {} });
  expect((await scan(qrOf(t))).body.result).toBe('refunded');
  const after = (
    await p.api.call('GET', `/api/v1/staff/sessions/${s.sessionId}/offline-bundle`, { token: staffToken })
  ).body as OfflineBundle;
  expect(after.revoked).toContain(t.ticketId);
  expect(verifyOffline(after, qrOf(t), now(), new Set()).result).toBe('refunded');
  expect(JSON.stringify(after)).not.toContain('secret');
});

it('offline scans sync: the first use stands, a second use at another gate is reported as a conflict', async () => {
  const { tickets } = await ticketsFor(s, 2);
  const bundle = (
    await p.api.call('GET', `/api/v1/staff/sessions/${s.sessionId}/offline-bundle`, { token: staffToken })
  ).body as OfflineBundle;
  const seen = new Set<string>();
  const v = verifyOffline(bundle, qrOf(tickets[0]!), now(), seen);
  expect(v.result).toBe('admitted');
  seen.add(tickets[0]!.ticketId);
  expect(verifyOffline(bundle, qrOf(tickets[0]!), now(), seen).result).toBe('already_used');
  // gate A was online for ticket 1; gate B admitted both offline and syncs later
  await scan(qrOf(tickets[1]!), 'A1');
  const at = new Date(now()).toISOString();
  const synced = await sync({
    gate: 'B9',
    sessionId: s.sessionId,
    bundle: bundle.token,
    checkins: [
      { ticketNo: tickets[0]!.ticketId, scannedAt: at },
      { ticketNo: tickets[1]!.ticketId, scannedAt: at },
    ],
  });
  expect(synced.body.items.map((i: { result: string }) => i.result)).toEqual(['admitted', 'already_used']);
  const again = await sync({
    gate: 'B9',
    sessionId: s.sessionId,
    bundle: bundle.token,
    checkins: [{ ticketNo: tickets[0]!.ticketId, scannedAt: at }],
  });
  expect(again.body).toMatchObject({ items: [{ result: 'admitted' }], gateCount: 1 }); // the same scan sent again: admitted, no new conflict
  const [rows] = await p.deps.db.query<RowDataPacket[]>(
    'SELECT kind, gate, first_gate FROM checkin_conflicts WHERE session_id = ?',
    [s.sessionId],
  );
  expect(rows).toEqual([expect.objectContaining({ kind: 'duplicate', gate: 'B9', first_gate: 'A1' })]);
});

it('real-name tickets show the attendee, masked; a checked-in ticket cannot be refunded', async () => {
  await p.deps.db.query('UPDATE show_sessions SET real_name = 1 WHERE id = ?', [s.sessionId]);
  p.deps.catalog.invalidate(s.sessionId);
  try {
    const fan = await ticketsFor(s, 1, [{ name: '欧阳娜娜', idNumber: '11010519491231002X' }]);
    const r = await scan(qrOf(fan.tickets[0]!));
    expect(r.body).toMatchObject({
      result: 'admitted',
      attendee: { name: '欧**娜', idNumber: '110***********002X' },
    });
    const refund = await p.api.call('POST', `/api/v1/orders/${fan.tickets[0]!.orderNo}/refund`, {
      token: fan.token,
      body: {},
    });
    expect(refund.body.error).toMatchObject({
      code: 'ORDER_STATE_INVALID',
      message: '门票已检票入场，不能退票',
    });
  } finally {
    await p.deps.db.query('UPDATE show_sessions SET real_name = 0 WHERE id = ?', [s.sessionId]);
    p.deps.catalog.invalidate(s.sessionId);
  }
});

it('key rotation keeps old tickets valid', async () => {
  const { tickets } = await ticketsFor(s, 1);
  const rotated = new TicketKeys(p.config.ticketKeySecret, ['k2', ...p.config.ticketKeyIds]);
  expect(rotated.publicKeys()).toHaveProperty('k1');
  const { parseQr, verifySignature } = await import('@showtix/shared-types/dist/ticket-code');
  const old = parseQr(qrOf(tickets[0]!))!;
  expect(verifySignature(old, rotated.publicKey(old.payload.k)!)).toBe(true);
  expect(
    parseQr(currentQr(rotated.signedQr(tickets[0]!.ticketId, s.sessionId), tickets[0]!.codeKey, now()))!
      .payload.k,
  ).toBe('k2');
});

describe('no way around the QR', () => {
  it('a ticket number alone admits no one', async () => {
    const { tickets } = await ticketsFor(s, 1);
    const r = await p.api.call('POST', '/api/v1/checkin', {
      token: staffToken,
      body: { ticketNo: tickets[0]!.ticketId, gate: 'A1', sessionId: s.sessionId },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('第二凭证');
    expect((await scan(qrOf(tickets[0]!))).body.result).toBe('admitted'); // nothing was recorded before
  });

  it("the gate's session is required: a scanner sending only {qr, gate} admits nothing", async () => {
    const { tickets } = await ticketsFor(s, 1);
    const r = await p.api.call('POST', '/api/v1/checkin', {
      token: staffToken,
      body: { qr: qrOf(tickets[0]!), gate: 'A1' },
    });
    expect(r.status).toBe(400);
    expect((await scan(qrOf(tickets[0]!))).body.result).toBe('admitted');
  });

  it("sync refuses another session's ticket, a scannedAt outside the bundle's window and a foreign bundle", async () => {
    await p.deps.db.query(
      "INSERT IGNORE INTO staff_assignments (user_id, show_id, created_by, created_at) VALUES (?, ?, 'test', NOW(3))",
      [staff, other.showId],
    );
    const mine = await ticketsFor(s, 2);
    const theirs = await ticketsFor(other, 1);
    const bundle = await bundleOf();
    const at = new Date(now()).toISOString();
    const r = await sync({
      gate: 'S1',
      sessionId: s.sessionId,
      bundle: bundle.token,
      checkins: [
        { ticketNo: theirs.tickets[0]!.ticketId, scannedAt: at },
        { ticketNo: mine.tickets[0]!.ticketId, scannedAt: '2020-01-01T00:00:00.000Z' },
        { ticketNo: mine.tickets[1]!.ticketId, scannedAt: new Date(now() + 3_600_000).toISOString() },
      ],
    });
    expect(r.body.items).toEqual([
      { ticketNo: theirs.tickets[0]!.ticketId, result: 'invalid', reason: 'other session' },
      { ticketNo: mine.tickets[0]!.ticketId, result: 'invalid', reason: 'outside window' },
      { ticketNo: mine.tickets[1]!.ticketId, result: 'invalid', reason: 'outside window' },
    ]);
    const otherBundle = await bundleOf(other.sessionId);
    const foreign = await sync({
      gate: 'S1',
      sessionId: s.sessionId,
      bundle: otherBundle.token,
      checkins: [{ ticketNo: mine.tickets[0]!.ticketId, scannedAt: at }],
    });
    expect(foreign.status).toBe(400);
    const forged = await sync({
      gate: 'S1',
      sessionId: s.sessionId,
      bundle: bundle.token.replace(/\.\d{13}\./, '.1577836800000.'),
      checkins: [{ ticketNo: mine.tickets[0]!.ticketId, scannedAt: '2020-01-01T00:00:01.000Z' }],
    });
    expect(forged.status).toBe(400);
    const [rows] = await p.deps.db.query<RowDataPacket[]>(
      'SELECT COUNT(*) n FROM checkins WHERE ticket_id IN (SELECT id FROM tickets WHERE ticket_no IN (?))',
      [[...mine.tickets, ...theirs.tickets].map((t) => t.ticketId)],
    );
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it('an offline bundle expires', async () => {
    const { tickets } = await ticketsFor(s, 1);
    const bundle = await bundleOf();
    expect(verifyOffline(bundle, qrOf(tickets[0]!), now(), new Set()).result).toBe('admitted');
    const later = Date.parse(bundle.expiresAt) + 1;
    expect(verifyOffline(bundle, qrOf(tickets[0]!, later), later, new Set())).toMatchObject({
      result: 'invalid',
      reason: 'bundle expired',
    });
  });
});
