import type { RowDataPacket } from 'mysql2/promise';
import { CODE_STEP_MS, parseCode, verifyOffline } from '@showtix/shared-types/dist/ticket-code';
import { TicketKeys } from '../src/tickets/keys';
import { BindingService } from '../src/tickets/bindings';
import { GateBench } from './helpers/gate';

/** Gate check-in: device-bound rotating codes, first scan wins, staff only, offline and synced. */
const g = new GateBench();
beforeAll(() => g.start());
afterAll(() => g.close());

it('admits once; the second scan is told when, where and by whom it was used', async () => {
  const [t] = await g.tickets(g.s, 1);
  const first = await g.scan(g.code(t!), 'A1');
  expect(first.body).toMatchObject({ result: 'admitted', ticketId: t!.ticketId, gateCount: 1 });
  const second = await g.scan(g.code(t!), 'B2');
  expect(second.body).toMatchObject({
    result: 'already_used',
    gate: 'A1',
    usedBy: g.staff,
    usedAt: expect.any(String),
  });
});

it('two gates scanning one ticket at the same instant admit it once', async () => {
  const [t] = await g.tickets(g.s, 1);
  const qr = g.code(t!);
  const results = await Promise.all(['A1', 'B2', 'C3', 'D4'].map((gate) => g.scan(qr, gate)));
  expect(results.map((r) => r.body.result).sort()).toEqual([
    'admitted',
    'already_used',
    'already_used',
    'already_used',
  ]);
});

it('refuses a flipped byte, a binding signed by an unknown key, an old screenshot and another session', async () => {
  const [t, u] = await g.tickets(g.s, 2);
  const qr = g.code(t!);
  const flipped = qr.slice(0, 60) + (qr[60] === 'A' ? 'B' : 'A') + qr.slice(61);
  expect((await g.scan(flipped)).body).toMatchObject({ result: 'invalid' });
  // A binding signed by a server key the gate does not know.
  const rogue = new BindingService(
    g.p.deps.db,
    new TicketKeys('another-secret-that-is-long-enough-0000', ['k1']),
    g.p.deps.redis,
    'unused:',
  );
  const [row] = (
    await g.p.deps.db.query<RowDataPacket[]>('SELECT * FROM ticket_bindings WHERE id = ?', [t!.bindingId])
  )[0];
  const forged = { ...t!, binding: rogue.view(row as any, t!.ticketId, g.s.sessionId).binding };
  expect((await g.scan(g.code(forged))).body).toMatchObject({ result: 'invalid', reason: 'signature' });
  const screenshot = g.code(t!, g.now() - 2 * CODE_STEP_MS - 1);
  expect((await g.scan(screenshot)).body).toMatchObject({ result: 'invalid', reason: 'code expired' });
  expect((await g.scan(g.code(t!, g.now() - CODE_STEP_MS))).body.result).toBe('admitted'); // one step of skew
  expect((await g.scan(g.code(u!), 'A1', { sessionId: g.other.sessionId })).body).toMatchObject({
    result: 'invalid',
    reason: 'other session',
  });
});

it('staff only, and only for their shows', async () => {
  const [t] = await g.tickets(g.s, 1);
  expect((await g.scan(g.code(t!), 'A1', {}, t!.token)).status).toBe(403); // a fan
  const [o] = await g.tickets(g.other, 1);
  // A ticket of a show this gate does not check: a red 非本场票, not an error sheet.
  expect((await g.scan(g.code(o!), 'A1', { sessionId: g.other.sessionId })).body).toMatchObject({
    result: 'invalid',
    reason: 'other show',
  });
  const bundle = await g.p.api.call('GET', `/api/v1/staff/sessions/${g.other.sessionId}/offline-bundle`, {
    token: g.staffToken,
  });
  expect(bundle.status).toBe(403);
  const admin = await g.p.api.tokenFor('admin:1', ['admin']);
  expect((await g.scan(g.code(t!), 'A1', {}, admin)).status).toBe(401); // an admin-page token is no WeChat user
});

it('a refunded ticket is refused online, and offline once the device has the new revocation list', async () => {
  const [t] = await g.tickets(g.s, 1);
  const before = await g.bundle();
  expect(verifyOffline(before, g.code(t!), g.now(), new Set()).result).toBe('admitted');
  await g.p.api.call('POST', `/api/v1/orders/${t!.orderNo}/refund`, { token: t!.token, body: {} });
  expect((await g.scan(g.code(t!))).body.result).toBe('refunded');
  const after = await g.bundle();
  expect(verifyOffline(after, g.code(t!), g.now(), new Set()).result).toBe('refunded');
  const text = JSON.stringify(after);
  expect(text).not.toContain(t!.ticketId); // keyed hashes, not ticket numbers
  expect(text).not.toMatch(/secret|codeKey|manual/i);
});

it('offline scans sync: the first use stands, a second use at another gate is reported as a conflict', async () => {
  const [a, b] = await g.tickets(g.s, 2);
  const bundle = await g.bundle();
  const seen = new Set<string>();
  const qrA = g.code(a!);
  expect(verifyOffline(bundle, qrA, g.now(), seen).result).toBe('admitted');
  seen.add(a!.ticketId);
  expect(verifyOffline(bundle, qrA, g.now(), seen).result).toBe('already_used');
  const qrB = g.code(b!);
  await g.scan(qrB, 'A1'); // gate A was online for ticket b; gate B admitted both offline
  const at = new Date(g.now()).toISOString();
  const items = [
    { ticketNo: a!.ticketId, scannedAt: at, code: qrA },
    { ticketNo: b!.ticketId, scannedAt: at, code: qrB },
  ];
  const sent = { gate: 'B9', sessionId: g.s.sessionId, bundle: bundle.token };
  const synced = await g.sync({ ...sent, checkins: items });
  expect(synced.body.items.map((i: { result: string }) => i.result)).toEqual(['admitted', 'already_used']);
  const again = await g.sync({ ...sent, checkins: [items[0]] });
  expect(again.body).toMatchObject({ items: [{ result: 'admitted' }], gateCount: 1 }); // sent again: no new conflict
  const [rows] = await g.p.deps.db.query<RowDataPacket[]>(
    'SELECT kind, gate, first_gate FROM checkin_conflicts WHERE session_id = ?',
    [g.s.sessionId],
  );
  expect(rows).toEqual([expect.objectContaining({ kind: 'duplicate', gate: 'B9', first_gate: 'A1' })]);
});

it('real-name tickets show the attendee, masked; a checked-in ticket cannot be refunded', async () => {
  await g.p.deps.db.query('UPDATE show_sessions SET real_name = 1 WHERE id = ?', [g.s.sessionId]);
  g.p.deps.catalog.invalidate(g.s.sessionId);
  try {
    const [t] = await g.tickets(g.s, 1, [{ name: '欧阳娜娜', idNumber: '11010519491231002X' }]);
    const r = await g.scan(g.code(t!));
    expect(r.body).toMatchObject({
      result: 'admitted',
      attendee: { name: '欧**娜', idNumber: '110***********002X' },
    });
    const refund = await g.p.api.call('POST', `/api/v1/orders/${t!.orderNo}/refund`, {
      token: t!.token,
      body: {},
    });
    expect(refund.body.error).toMatchObject({
      code: 'ORDER_STATE_INVALID',
      message: '门票已检票入场，不能退票',
    });
  } finally {
    await g.p.deps.db.query('UPDATE show_sessions SET real_name = 0 WHERE id = ?', [g.s.sessionId]);
    g.p.deps.catalog.invalidate(g.s.sessionId);
  }
});

it('the wallet and the order say whose real-name ticket it is (masked), before the gate sees it', async () => {
  await g.p.deps.db.query('UPDATE show_sessions SET real_name = 1 WHERE id = ?', [g.s.sessionId]);
  g.p.deps.catalog.invalidate(g.s.sessionId);
  try {
    const [t1, t2] = await g.tickets(g.s, 2, [
      { name: '欧阳娜娜', idNumber: '110105198001010016' },
      { name: '张三', idNumber: '110105198001010024' },
    ]);
    const wallet = (await g.p.api.call('GET', '/api/v1/tickets', { token: t1!.token })).body.items;
    const held = wallet.filter((w: { orderNo: string }) => w.orderNo === t1!.orderNo);
    expect(held.map((w: { attendee?: unknown }) => w.attendee)).toEqual([
      { name: '欧**娜', idMasked: '110***********0016' },
      { name: '张*', idMasked: '110***********0024' },
    ]);
    const order = (await g.p.api.call('GET', `/api/v1/orders/${t2!.orderNo}`, { token: t2!.token })).body;
    expect(order.items.map((i: { attendee?: unknown }) => i.attendee)).toEqual(
      held.map((w: { attendee?: unknown }) => w.attendee),
    );
  } finally {
    await g.p.deps.db.query('UPDATE show_sessions SET real_name = 0 WHERE id = ?', [g.s.sessionId]);
    g.p.deps.catalog.invalidate(g.s.sessionId);
  }
});

it('key rotation: bindings signed by the old key still verify; new ones are signed by the new key', async () => {
  const [t] = await g.tickets(g.s, 1);
  const rotated = new TicketKeys(g.p.config.ticketKeySecret, ['k2', ...g.p.config.ticketKeyIds]);
  const old = parseCode(g.code(t!))!;
  expect(old.binding.kid).toBe('k1');
  expect(rotated.publicKeys()).toHaveProperty('k1');
  expect(Buffer.from(rotated.publicKey('k1')!).toString('base64url')).toBe(
    Buffer.from(g.p.deps.ticketKeys.publicKey('k1')!).toString('base64url'),
  );
  const svc = new BindingService(g.p.deps.db, rotated, g.p.deps.redis, 'unused:');
  const [row] = (
    await g.p.deps.db.query<RowDataPacket[]>('SELECT * FROM ticket_bindings WHERE id = ?', [t!.bindingId])
  )[0];
  expect(
    parseCode(g.code({ ...t!, binding: svc.view(row as any, t!.ticketId, g.s.sessionId).binding }))!.binding
      .kid,
  ).toBe('k2');
});
