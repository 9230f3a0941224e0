import taro, { resetTaro } from './stubs/taro';
import { ok, refuse, serveApi } from './fake-api';
import {
  admittedHere,
  loadBundle,
  pendingCheckins,
  saveBundle,
  scanOffline,
  scanTicket,
  syncPending,
} from '../../src/services/gate';

const support = require('../support/tickets');

const NOW = new Date('2027-01-15T11:00:00.000Z').getTime();
const keys = support.keyPair();
const DIGITS = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
/** Ticket number i, in the server's alphabet. */
const no = (i: number) => {
  let s = '';
  for (let n = i; s.length < 19; n = Math.floor(n / 32)) s = DIGITS[n % 32] + s;
  return `T${s}`;
};
const [a, b, c] = [no(3), no(4), no(5)].map((t) => support.ticket(keys, t, '7'));
const bundle = support.bundle(keys, '7', [a, b], [c.ticketNo], {
  [b.ticketNo]: { attendee: { name: '张*', idNumber: '110***********002X' } },
});

beforeEach(() => {
  resetTaro();
  taro.setStorageSync('showtix.token', 'tok');
});

describe('the offline bundle in storage', () => {
  it('is kept in chunks of at most 1,500 tickets and read back whole; old chunks go', () => {
    const many = Array.from({ length: 4_000 }, (_, i) => ({ ticketNo: no(i + 10) }));
    const big = support.bundle(keys, '9', many, [no(9)]);
    expect(saveBundle(big)).toBe(true);
    expect(taro.getStorageSync('showtix.gate.bundle.9.2')).not.toBe('');
    expect(loadBundle('9')).toEqual(big);
    const small = support.bundle(keys, '9', many.slice(0, 10));
    saveBundle(small);
    expect(taro.getStorageSync('showtix.gate.bundle.9.1')).toBe('');
    expect(loadBundle('9')).toEqual(small);
    expect(loadBundle('10')).toBeUndefined();
  });

  it('reports a full storage instead of failing the scan desk', () => {
    const set = taro.setStorageSync;
    taro.setStorageSync = () => {
      throw new Error('exceed storage max size');
    };
    try {
      expect(saveBundle(bundle)).toBe(false);
    } finally {
      taro.setStorageSync = set;
    }
  });
});

describe('offline checks', () => {
  it('admits a current code once, queues it, and refuses the second use with when and where', () => {
    const first = scanOffline(bundle, { qr: support.qrAt(a, NOW) }, '东1门', NOW);
    expect(first).toMatchObject({
      result: 'admitted',
      offline: true,
      ticketId: a.ticketNo,
      seat: 'A区 1排1座',
    });
    expect(pendingCheckins()).toEqual([
      {
        sessionId: '7',
        gate: '东1门',
        bundle: bundle.token,
        ticketNo: a.ticketNo,
        scannedAt: new Date(NOW).toISOString(),
        code: support.qrAt(a, NOW),
      },
    ]);
    const again = scanOffline(bundle, { qr: support.qrAt(a, NOW + 5_000) }, '西2门', NOW + 5_000);
    expect(again).toMatchObject({
      result: 'already_used',
      usedAt: new Date(NOW).toISOString(),
      usedGate: '东1门',
      usedBy: '本机',
    });
    expect(pendingCheckins()).toHaveLength(1);
  });

  it('shows the attendee of a real-name ticket, accepts one window of skew, refuses older codes', () => {
    expect(scanOffline(bundle, { qr: support.qrAt(b, NOW - 20_000) }, 'G', NOW)).toMatchObject({
      result: 'admitted',
      attendee: { name: '张*', idNumber: '110***********002X' },
    });
    expect(scanOffline(bundle, { qr: support.qrAt(a, NOW - 45_000) }, 'G', NOW)).toEqual({
      result: 'invalid',
      offline: true,
      reason: 'code expired',
      ticketId: a.ticketNo,
    });
  });

  it.each([
    ['a refunded ticket', () => support.qrAt(c, NOW), { result: 'refunded' }],
    [
      'another session',
      () => support.qrAt(support.ticket(keys, no(6), '8'), NOW),
      { reason: 'other session' },
    ],
    [
      'another key',
      () => support.qrAt(support.ticket(support.keyPair(), no(7), '7'), NOW),
      { reason: 'signature' },
    ],
    [
      "another phone's signature over this ticket's binding",
      () => support.qrAt({ ...a, device: support.device() }, NOW),
      { reason: 'device signature' },
    ],
    [
      'a re-bound ticket on its old phone',
      () => support.qrAt(a, NOW),
      { reason: 'binding revoked' },
      { revokedBindings: [a.bindingId] },
    ],
    [
      'an expired bundle',
      () => support.qrAt(a, NOW),
      { reason: 'bundle expired' },
      { expiresAt: new Date(NOW - 1).toISOString() },
    ],
    [
      'a ticket not in the bundle',
      () => support.qrAt(support.ticket(keys, no(8), '7'), NOW),
      { reason: 'unknown ticket' },
    ],
    ['garbage', () => 'hello', { reason: 'unreadable' }],
    [
      'a flipped payload byte',
      () => {
        const qr = support.qrAt(a, NOW);
        const i = 8;
        return qr.slice(0, i) + (qr[i] === 'A' ? 'B' : 'A') + qr.slice(i + 1);
      },
      { result: 'invalid' },
    ],
  ] as [string, () => string, object, object?][])('refuses %s', (...row) => {
    const [, qr, expected, more] = row; // (a rest parameter: jest reads a 4th one as done)
    expect(scanOffline({ ...bundle, ...more }, { qr: qr() }, 'G', NOW)).toMatchObject(expected);
    expect(pendingCheckins()).toEqual([]);
  });

  it('admits no typed ticket number offline, whatever comes with it (manual entry needs the server)', () => {
    expect(
      scanOffline(bundle, { ticketNo: a.ticketNo, spokenCode: support.spokenAt(a, NOW) }, 'G', NOW),
    ).toMatchObject({
      result: 'invalid',
      reason: 'needs network',
    });
    expect(pendingCheckins()).toEqual([]);
  });
});

describe('online first, offline when the request gets no answer', () => {
  const scan = (online: boolean, withBundle = true) =>
    scanTicket({
      input: { qr: support.qrAt(a, NOW) },
      gate: 'G',
      sessionId: '7',
      online,
      bundle: withBundle ? bundle : undefined,
      nowMs: () => NOW,
    });

  it('an online admission is remembered on the phone (refused offline later)', async () => {
    serveApi({ 'POST /api/v1/checkin': ok({ result: 'admitted', ticketId: a.ticketNo, gateCount: 3 }) });
    expect(await scan(true)).toMatchObject({ result: 'admitted', offline: false, gateCount: 3 });
    expect(admittedHere('7')[a.ticketNo]).toMatchObject({ gate: 'G', offline: false });
    expect(await scan(false)).toMatchObject({ result: 'already_used', offline: true });
    expect(pendingCheckins()).toEqual([]);
  });

  it('no answer: the bundle decides; a refusal of the server is not second-guessed', async () => {
    serveApi({ 'POST /api/v1/checkin': 'network' });
    expect(await scan(true)).toMatchObject({ result: 'admitted', offline: true });
    serveApi({ 'POST /api/v1/checkin': refuse(403, 'FORBIDDEN') });
    await expect(scan(true)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    serveApi({ 'POST /api/v1/checkin': 'network' });
    await expect(scan(true, false)).rejects.toMatchObject({ code: 'NETWORK' });
  });
});

describe('sync', () => {
  function queueTwoGates() {
    scanOffline(bundle, { qr: support.qrAt(a, NOW) }, '东1门', NOW);
    scanOffline(bundle, { qr: support.qrAt(b, NOW + 1_000) }, '西2门', NOW + 1_000);
  }

  it('posts per gate, reports conflicts, empties the queue', async () => {
    queueTwoGates();
    const sent = serveApi({
      'POST /api/v1/checkin/sync': ({ data }) => {
        const { gate, checkins } = data as { gate: string; checkins: { ticketNo: string }[] };
        return ok({
          items: checkins.map((x) => ({
            ticketNo: x.ticketNo,
            result: gate === '东1门' ? 'admitted' : 'already_used',
          })),
        });
      },
    });
    const report = await syncPending(NOW + 60_000);
    const item = (t: typeof a, at: number) => ({
      ticketNo: t.ticketNo,
      scannedAt: new Date(at).toISOString(),
      code: support.qrAt(t, at),
    });
    const head = { sessionId: '7', bundle: bundle.token };
    expect(sent.map((s) => s.data)).toEqual([
      { gate: '东1门', ...head, checkins: [item(a, NOW)] },
      { gate: '西2门', ...head, checkins: [item(b, NOW + 1_000)] },
    ]);
    expect(report).toEqual({
      at: new Date(NOW + 60_000).toISOString(),
      sent: 2,
      admitted: 1,
      conflicts: [{ ticketNo: b.ticketNo, result: 'already_used' }],
    });
    expect(pendingCheckins()).toEqual([]);
    expect(await syncPending(NOW)).toBeUndefined();
  });

  it('keeps what did not get through: all failed throws, some failed reports the rest', async () => {
    queueTwoGates();
    serveApi({ 'POST /api/v1/checkin/sync': 'network' });
    await expect(syncPending(NOW)).rejects.toThrow();
    expect(pendingCheckins()).toHaveLength(2);
    serveApi({
      'POST /api/v1/checkin/sync': ({ data }) =>
        (data as { gate: string }).gate === '东1门'
          ? ok({ items: [{ ticketNo: a.ticketNo, result: 'refunded' }] })
          : 'network',
    });
    expect(await syncPending(NOW)).toMatchObject({
      sent: 1,
      conflicts: [{ ticketNo: a.ticketNo, result: 'refunded' }],
    });
    expect(pendingCheckins().map((p) => p.ticketNo)).toEqual([b.ticketNo]);
  });
});
