import type { RowDataPacket } from 'mysql2/promise';
import { ed25519 } from '@noble/curves/ed25519';
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha256';
import {
  b64urlToBytes,
  makeCode,
  manualDigits,
  manualKeyOf,
  parseBinding,
  verifyOffline,
} from '@showtix/shared-types/dist/ticket-code';
import { createSession } from './helpers/fixtures';
import { GateBench, newDevice } from './helpers/gate';

/**
 * Device-bound tickets and the ways around the QR a scalper would try: each of these passed
 * before the gate issue (bare ticket numbers, codes made from the fan API or a bundle, syncs).
 */
const g = new GateBench();
beforeAll(() => g.start());
afterAll(() => g.close());

describe('no way around the QR', () => {
  it('a ticket number alone admits no one', async () => {
    const [t] = await g.tickets(g.s, 1);
    const r = await g.p.api.call('POST', '/api/v1/checkin', {
      token: g.staffToken,
      body: { ticketNo: t!.ticketId, gate: 'A1', sessionId: g.s.sessionId },
    });
    expect(r.status).toBe(400);
    expect((await g.scan(g.code(t!))).body.result).toBe('admitted'); // nothing was recorded before
  });

  it("a scanner sending only the contract's {qr, gate} admits only a ticket whose session is on now", async () => {
    const [later] = await g.tickets(g.s, 1); // the fixture's session starts in 30 days
    const contractScan = (qr: string) =>
      g.p.api.call('POST', '/api/v1/checkin', { token: g.staffToken, body: { qr, gate: 'A1' } });
    expect((await contractScan(g.code(later!))).body).toMatchObject({
      result: 'invalid',
      reason: 'not today',
    });
    const tonight = await createSession(g.p.deps, {
      seats: 2,
      startsAt: new Date(g.now() + 3_600_000),
    });
    await g.assign(tonight.showId);
    const [t] = await g.tickets(tonight, 1);
    expect((await contractScan(g.code(t!))).body.result).toBe('admitted');
    expect((await g.scan(g.code(later!))).body.result).toBe('admitted'); // nothing was recorded before
  });

  it("sync refuses another session's ticket, a scannedAt outside the bundle's window, bare numbers and a foreign bundle", async () => {
    await g.assign(g.other.showId);
    const [m1, m2, m3] = await g.tickets(g.s, 3);
    const [theirs] = await g.tickets(g.other, 1);
    const bundle = await g.bundle();
    const at = new Date(g.now()).toISOString();
    const old = '2020-01-01T00:00:00.000Z';
    const later = g.now() + 3_600_000;
    const r = await g.sync({
      gate: 'S1',
      sessionId: g.s.sessionId,
      bundle: bundle.token,
      checkins: [
        { ticketNo: theirs!.ticketId, scannedAt: at, code: g.code(theirs!) },
        { ticketNo: m1!.ticketId, scannedAt: old, code: g.code(m1!, Date.parse(old)) },
        { ticketNo: m2!.ticketId, scannedAt: new Date(later).toISOString(), code: g.code(m2!, later) },
        { ticketNo: m3!.ticketId, scannedAt: at, code: m3!.ticketId }, // a bare ticket number
        { ticketNo: m3!.ticketId, scannedAt: at, code: g.code(m1!) }, // someone else's code
      ],
    });
    expect(r.body.items.map((i: { reason: string }) => i.reason)).toEqual([
      'other session',
      'outside window', // 2020
      'outside window',
      'unreadable',
      'unreadable',
    ]);
    const foreign = await g.sync({
      gate: 'S1',
      sessionId: g.s.sessionId,
      bundle: (await g.bundle(g.other.sessionId)).token,
      checkins: [{ ticketNo: m1!.ticketId, scannedAt: at, code: g.code(m1!) }],
    });
    expect(foreign.status).toBe(400);
    const forged = await g.sync({
      gate: 'S1',
      sessionId: g.s.sessionId,
      bundle: bundle.token.replace(/\.\d{13}\./, '.1577836800000.'),
      checkins: [{ ticketNo: m1!.ticketId, scannedAt: at, code: g.code(m1!) }],
    });
    expect(forged.status).toBe(400);
    const [rows] = await g.p.deps.db.query<RowDataPacket[]>(
      'SELECT COUNT(*) n FROM checkins WHERE ticket_id IN (SELECT id FROM tickets WHERE ticket_no IN (?))',
      [[m1, m2, m3, theirs].map((t) => t!.ticketId)],
    );
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it('an offline bundle expires', async () => {
    const [t] = await g.tickets(g.s, 1);
    const bundle = await g.bundle();
    expect(verifyOffline(bundle, g.code(t!), g.now(), new Set()).result).toBe('admitted');
    const after = Date.parse(bundle.expiresAt) + 1;
    expect(verifyOffline(bundle, g.code(t!, after), after, new Set())).toMatchObject({
      reason: 'bundle expired',
    });
  });
});

describe('device-bound codes', () => {
  it("a scalper's code made from everything the fan's API returns fails", async () => {
    const [t] = await g.tickets(g.s, 1);
    const api = await g.p.api.call('GET', '/api/v1/tickets', { token: t!.token });
    const item = api.body.items.find((i: { ticketId: string }) => i.ticketId === t!.ticketId);
    const text = JSON.stringify(api.body);
    expect(text).not.toMatch(/codeKey|qrSigned|secret|manualKey/);
    expect(item.binding.devicePublicKey).toBe(t!.device.pub);
    // His own key over the fan's binding; the binding's bytes as a key; the old HMAC scheme.
    const scalper = newDevice();
    expect((await g.scan(makeCode(item.binding.binding, scalper.priv, g.now()))).body).toMatchObject({
      result: 'invalid',
      reason: 'device signature',
    });
    const asKey = sha256(b64urlToBytes(item.binding.binding));
    expect((await g.scan(makeCode(item.qr, asKey, g.now()))).body.reason).toBe('device signature');
    const stx2 = `STX2.${Buffer.from(JSON.stringify({ t: t!.ticketId, s: g.s.sessionId, k: 'k1' })).toString('base64url')}.${'A'.repeat(86)}.123456`;
    expect((await g.scan(stx2)).body).toMatchObject({ result: 'invalid', reason: 'outdated code' });
    expect((await g.scan(g.code(t!))).body.result).toBe('admitted'); // the fan's own phone
  });

  it('a code made from an offline bundle fails, and the bundle names no ticket', async () => {
    const [t] = await g.tickets(g.s, 1);
    const bundle = await g.bundle();
    const binding = parseBinding(t!.binding)!;
    for (const key of [bundle.hashKey, ...Object.values(bundle.keys)]) {
      const forged = makeCode(t!.binding, sha256(b64urlToBytes(key)), g.now());
      expect(verifyOffline(bundle, forged, g.now(), new Set())).toMatchObject({ reason: 'device signature' });
      expect((await g.scan(forged)).body.reason).toBe('device signature');
    }
    expect(JSON.stringify(bundle)).not.toContain(t!.ticketId);
    expect(Object.keys(bundle.tickets)).toContain(
      Buffer.from(
        hmac(sha256, b64urlToBytes(bundle.hashKey), Buffer.from(t!.ticketId)).subarray(0, 16),
      ).toString('base64url'),
    );
    expect(ed25519.getPublicKey(t!.device.priv)).toEqual(binding.devicePub);
  });

  it('a screenshot older than the window fails online and offline', async () => {
    const [t] = await g.tickets(g.s, 1);
    const bundle = await g.bundle();
    const shot = g.code(t!, g.now() - 45_000);
    expect(verifyOffline(bundle, shot, g.now(), new Set())).toMatchObject({ reason: 'code expired' });
    expect((await g.scan(shot)).body).toMatchObject({ result: 'invalid', reason: 'code expired' });
  });

  it("a re-bound ticket's old phone is refused online at once and offline after the next bundle", async () => {
    const [t] = await g.tickets(g.s, 1);
    const oldBundle = await g.bundle();
    const phone = newDevice();
    const r = await g.bind(t!.token, t!.ticketId, phone);
    expect(r.body).toMatchObject({ rebound: true });
    const moved = { ...t!, binding: r.body.binding, device: phone };
    const oldCode = g.code(t!);
    expect((await g.scan(oldCode)).body).toMatchObject({ result: 'invalid', reason: 'binding revoked' });
    expect(verifyOffline(oldBundle, oldCode, g.now(), new Set()).result).toBe('admitted'); // not yet known offline
    const newBundle = await g.bundle();
    expect(newBundle.revokedBindings).toContain(t!.bindingId);
    expect(verifyOffline(newBundle, oldCode, g.now(), new Set())).toMatchObject({
      reason: 'binding revoked',
    });
    expect(verifyOffline(newBundle, g.code(moved), g.now(), new Set()).result).toBe('admitted');
    expect((await g.scan(g.code(moved))).body.result).toBe('admitted');
    const [audit] = await g.p.deps.db.query<RowDataPacket[]>(
      "SELECT action, actor FROM admin_audit_log WHERE entity_type = 'ticket' AND entity_id = ? ORDER BY id",
      [t!.ticketId],
    );
    expect(audit.map((a) => a.action)).toEqual(['ticket.bind', 'ticket.rebind']);
    // The admin ticket view shows both phones: the current one and the revoked one.
    const detail = await g.p.deps.admin.orders.detail(t!.orderNo);
    expect(detail.tickets[0]!.bindings).toEqual([
      expect.objectContaining({ id: r.body.bindingId, device: phone.pub.slice(0, 8), revokedAt: null }),
      expect.objectContaining({ id: t!.bindingId, revokedAt: expect.any(String), revokedReason: 'rebind' }),
    ]);
  });

  it('binding again on the same phone changes nothing; re-binds are limited per day and frozen before the show if the organiser says so', async () => {
    const [t] = await g.tickets(g.s, 1);
    const same = await g.bind(t!.token, t!.ticketId, t!.device);
    expect(same.body).toMatchObject({ rebound: false, bindingId: t!.bindingId });
    expect((await g.bind(t!.token, t!.ticketId, newDevice())).status).toBe(200);
    expect((await g.bind(t!.token, t!.ticketId, newDevice())).status).toBe(200);
    const limited = await g.bind(t!.token, t!.ticketId, newDevice());
    expect(limited.status).toBe(429);
    const [u] = await g.tickets(g.s, 1);
    // The organiser's setting, through the admin session update (audited there).
    const who = { adminId: '1', username: 'organiser', ip: '' };
    const set = await g.p.deps.admin.sessions.update(
      who,
      g.s.sessionId,
      { rebindFreezeMinutes: 120 },
      g.p.clock.now(),
    );
    expect(set.rebindFreezeMinutes).toBe(120);
    expect((await g.bind(u!.token, u!.ticketId, u!.device)).status).toBe(200); // 30 days ahead: not frozen yet
    await g.p.deps.db.query('UPDATE show_sessions SET rebind_freeze_minutes = ? WHERE id = ?', [
      60 * 24 * 365,
      g.s.sessionId,
    ]);
    try {
      const frozen = await g.bind(u!.token, u!.ticketId, newDevice());
      expect(frozen.body.error).toMatchObject({ code: 'REBIND_FROZEN' });
      expect((await g.scan(g.code(u!))).body.result).toBe('admitted'); // the bound phone still works
    } finally {
      await g.p.deps.db.query('UPDATE show_sessions SET rebind_freeze_minutes = NULL WHERE id = ?', [
        g.s.sessionId,
      ]);
    }
    const stranger = await g.p.login('openid-stranger');
    expect((await g.bind(stranger.token, u!.ticketId, newDevice())).status).toBe(404);
  });
});

describe('manual entry needs a second factor', () => {
  const manual = (body: object, device = 'staff-phone-1') =>
    g.p.api.call('POST', '/api/v1/checkin', {
      token: g.staffToken,
      headers: { 'x-device-id': device },
      body: { gate: 'M1', sessionId: g.s.sessionId, ...body },
    });

  it("the holder's spoken code (only the bound phone can derive it) admits, counted and audited as manual", async () => {
    const [t] = await g.tickets(g.s, 1);
    const key = manualKeyOf(t!.device.priv, t!.ticketId);
    const wrong = await manual({ ticketNo: t!.ticketId, spokenCode: '000000' }, 'staff-phone-2');
    expect(wrong.body).toMatchObject({ result: 'invalid', reason: 'second factor' });
    const scalper = manualDigits(manualKeyOf(newDevice().priv, t!.ticketId), g.now());
    expect((await manual({ ticketNo: t!.ticketId, spokenCode: scalper }, 'staff-phone-2')).body.reason).toBe(
      'second factor',
    );
    const r = await manual(
      { ticketNo: t!.ticketId, spokenCode: manualDigits(key, g.now()) },
      'staff-phone-2',
    );
    expect(r.body).toMatchObject({ result: 'admitted', kind: 'manual_code' });
    const [rows] = await g.p.deps.db.query<RowDataPacket[]>(
      'SELECT c.kind FROM checkins c JOIN tickets t ON t.id = c.ticket_id WHERE t.ticket_no = ?',
      [t!.ticketId],
    );
    expect(rows[0]!.kind).toBe('manual_code');
    const [audit] = await g.p.deps.db.query<RowDataPacket[]>(
      "SELECT after_json FROM admin_audit_log WHERE action = 'checkin.manual' AND entity_id = ? ORDER BY id",
      [t!.ticketId],
    );
    expect(audit.map((a) => JSON.parse(a.after_json).result)).toEqual(['invalid', 'invalid', 'admitted']);
  });

  it("the ID's last four characters, on real-name sessions only", async () => {
    const [plain] = await g.tickets(g.s, 1);
    expect((await manual({ ticketNo: plain!.ticketId, idLast4: '002X' }, 'staff-phone-3')).body.reason).toBe(
      'not real-name',
    );
    await g.p.deps.db.query('UPDATE show_sessions SET real_name = 1 WHERE id = ?', [g.s.sessionId]);
    g.p.deps.catalog.invalidate(g.s.sessionId);
    try {
      const [t] = await g.tickets(g.s, 1, [{ name: '欧阳娜娜', idNumber: '11010519491231002X' }]);
      expect((await manual({ ticketNo: t!.ticketId, idLast4: '1234' }, 'staff-phone-3')).body.reason).toBe(
        'second factor',
      );
      expect((await manual({ ticketNo: t!.ticketId, idLast4: '002x' }, 'staff-phone-3')).body).toMatchObject({
        result: 'admitted',
        kind: 'manual_id',
        attendee: { name: '欧**娜' },
      });
    } finally {
      await g.p.deps.db.query('UPDATE show_sessions SET real_name = 0 WHERE id = ?', [g.s.sessionId]);
      g.p.deps.catalog.invalidate(g.s.sessionId);
    }
  });

  it('is rate-limited per staff device', async () => {
    const [t] = await g.tickets(g.s, 1);
    const codes = await Promise.all(
      Array.from({ length: 11 }, () =>
        manual({ ticketNo: t!.ticketId, spokenCode: '123456' }, 'staff-phone-4'),
      ),
    );
    expect(codes.filter((r) => r.status === 429)).toHaveLength(1);
    expect(codes.some((r) => r.body.result === 'admitted')).toBe(false);
  });
});
