import type { PoolConnection, RowDataPacket } from 'mysql2/promise';
import {
  makeCode,
  manualKeyOf,
  ticketHash,
  verifyOffline,
  type OfflineBundle,
} from '@showtix/shared-types/dist/ticket-code';
import { RefundService } from '../src/refunds/service';
import { pauseRefundAfterCheck } from './helpers/refund-pause';
import { issueTickets } from '../src/tickets/service';
import { admittedCount, lockOrderTickets, moveOrderTickets } from '../src/tickets/repo';
import { TICKET_LIFECYCLE } from '../src/lifecycle/transitions';
import { assignStaff, createUsers, type SessionFixture } from './helpers/fixtures';
import { paidOrder as paidOrderOf, payEnvWithSession, type PayEnv } from './helpers/pay-env';
import { newDevice, type Device } from './helpers/gate';

/**
 * Invariants: no ticket is admissible while a refund of its order is open or done; a checked-in
 * ticket is never refunded. Consumers are off: each test runs the tickets consumer's handler
 * itself, at the moment that matters, and the refund stays open (never sent to WeChat).
 */
let p: PayEnv;
let s: SessionFixture;
let staffToken: string;
let seat = 0;

beforeAll(async () => {
  ({ p, s } = await payEnvWithSession(20, { consumers: false }));
  const [staff] = await createUsers(p.deps, 1);
  await assignStaff(p.deps, staff!, s.showId);
  staffToken = await p.api.tokenFor(staff!);
});
afterAll(() => p.close());
afterEach(() => jest.restoreAllMocks());

interface Ticket {
  ticketId: string;
  status: string;
}

/** A ticket bound to the fan's phone (the wallet binds a ticket while it is valid). */
interface Bound extends Ticket {
  binding: string;
  device: Device;
}

/** A paid order (the notification applied) of the next n seats, its tickets not issued yet. */
const paidOrder = (openid: string, n = 1) =>
  paidOrderOf(p, openid, { sessionId: s.sessionId, seatIds: s.seatIds.slice(seat, (seat += n)) });

const ticketsOf = async (token: string): Promise<Ticket[]> =>
  (await p.api.call('GET', '/api/v1/tickets', { token })).body.items;
const bind = (token: string, ticketId: string, device: Device) =>
  p.api.call('POST', `/api/v1/tickets/${ticketId}/bind`, {
    token,
    body: { publicKey: device.pub, manualKey: manualKeyOf(device.priv, ticketId) },
  });
/** The fan's valid tickets, each bound to a new phone. */
async function boundTickets(token: string): Promise<Bound[]> {
  const out: Bound[] = [];
  for (const t of await ticketsOf(token)) {
    const device = newDevice();
    const b = await bind(token, t.ticketId, device);
    if (b.status !== 200) throw new Error(`bind failed: ${JSON.stringify(b.body)}`);
    out.push({ ...t, binding: b.body.binding, device });
  }
  return out;
}
const qrOf = (t: Bound) => makeCode(t.binding, t.device.priv, p.clock.now().getTime());
const scan = (t: Bound, gate = 'A1') =>
  p.api.call('POST', '/api/v1/checkin', {
    token: staffToken,
    body: { qr: qrOf(t), gate, sessionId: s.sessionId },
  });
const refund = (o: { fan: { token: string }; orderNo: string }) =>
  p.api.call('POST', `/api/v1/orders/${o.orderNo}/refund`, { token: o.fan.token, body: {} });
const bundle = async () =>
  (await p.api.call('GET', `/api/v1/staff/sessions/${s.sessionId}/offline-bundle`, { token: staffToken }))
    .body as OfflineBundle;

it('a refund asked while the order is paid: the tickets consumer issues no admissible ticket', async () => {
  const o = await paidOrder('openid-adm-paid', 2);
  expect((await refund(o)).status).toBe(200);
  expect(await issueTickets(p.deps, o.orderId, p.clock.now())).toBe('issued');
  const tickets = await ticketsOf(o.fan.token);
  expect(tickets.map((t) => t.status)).toEqual(['refunding', 'refunding']);
  // No phone can be bound to them, so no code can be shown; the gate's bundle lists them revoked.
  expect((await bind(o.fan.token, tickets[0]!.ticketId, newDevice())).body.error.code).toBe(
    'TICKET_NOT_BINDABLE',
  );
  const b = await bundle();
  expect(b.revoked).toEqual(expect.arrayContaining(tickets.map((t) => ticketHash(b.hashKey, t.ticketId))));
});

it("an admin's refund of a paid order blocks the tickets issued after it too", async () => {
  const o = await paidOrder('openid-adm-admin');
  await p.deps.refunds.refundOrder({
    orderId: o.orderId,
    by: { kind: 'admin', id: '1' },
    now: p.clock.now(),
  });
  await issueTickets(p.deps, o.orderId, p.clock.now());
  const [t] = await ticketsOf(o.fan.token);
  expect(t!.status).toBe('refunding');
  const b = await bundle();
  expect(b.revoked).toContain(ticketHash(b.hashKey, t!.ticketId));
});

it('the gate refuses a ticket whose order has an open refund even if the ticket still reads valid', async () => {
  const o = await paidOrder('openid-adm-stale');
  await issueTickets(p.deps, o.orderId, p.clock.now());
  const [t] = await boundTickets(o.fan.token); // bound while valid: the phone can show a code
  await refund(o);
  // a ticket row left valid (written before this invariant was enforced everywhere)
  await p.deps.db.query('UPDATE tickets SET status = 1 WHERE order_id = ?', [o.orderId]);
  expect((await scan(t!)).body.result).toBe('refunded');
  const b = await bundle();
  expect(b.revoked).toContain(ticketHash(b.hashKey, t!.ticketId));
  expect(verifyOffline(b, qrOf(t!), p.clock.now().getTime(), new Set()).result).toBe('refunded');
  const sync = await p.api.call('POST', '/api/v1/checkin/sync', {
    token: staffToken,
    body: {
      gate: 'B2',
      sessionId: s.sessionId,
      bundle: b.token,
      checkins: [{ ticketNo: t!.ticketId, scannedAt: p.clock.now().toISOString(), code: qrOf(t!) }],
    },
  });
  expect(sync.body.items).toEqual([expect.objectContaining({ ticketNo: t!.ticketId, result: 'refunded' })]);
});

describe('refund against check-in, racing (pretix style: pause the refund between its check and its update)', () => {
  /**
   * The guard itself: a refund's "already checked in?" check, then (after a pause) its ticket
   * update. Guard off (a plain read, no ticket locks): a scan commits in between, so a used
   * ticket would be refunded. Guard on (lockOrderTickets, then the locking count): the scan
   * waits for the refund's commit and sees the ticket REFUNDING.
   */
  it.each([
    ['off', false, 'admitted'],
    ['on', true, 'refunded'],
  ])('guard %s', async (_name, guard, expected) => {
    const o = await paidOrder(`openid-adm-guard-${String(guard)}`);
    await issueTickets(p.deps, o.orderId, p.clock.now());
    const [t] = await boundTickets(o.fan.token);
    const conn = await p.deps.db.getConnection();
    let scanned: string | undefined;
    try {
      await conn.beginTransaction();
      const ids = guard
        ? await lockOrderTickets(conn, o.orderId)
        : (
            await conn.query<RowDataPacket[]>('SELECT id FROM tickets WHERE order_id = ?', [o.orderId])
          )[0].map((r) => String(r.id));
      const usedBefore = guard
        ? await admittedCount(conn, ids)
        : Number(
            (
              await conn.query<RowDataPacket[]>('SELECT COUNT(*) n FROM checkins WHERE ticket_id IN (?)', [
                ids,
              ])
            )[0][0]!.n,
          );
      expect(usedBefore).toBe(0);
      const scanning = scan(t!).then((r) => (scanned = r.body.result));
      await new Promise((r) => setTimeout(r, 300));
      expect(scanned).toBe(guard ? undefined : 'admitted');
      await moveOrderTickets(conn, o.orderId, TICKET_LIFECYCLE.holdForRefund);
      await conn.commit();
      await scanning;
    } finally {
      conn.release();
    }
    expect(scanned).toBe(expected);
  });

  /**
   * The whole refund path with a scan in its pause. Guard off: the guard's ticket locks are taken
   * away (the check-ins are still counted, by a plain read), and the race shows: the scan admits
   * the fan during the pause and the refund of the used ticket goes through anyway. Guard on (the
   * code as shipped): the scan waits for the refund's commit and is refused.
   */
  it.each([
    ['off', false],
    ['on', true],
  ])('a scan during the pause, guard %s', async (_name, guard) => {
    const o = await paidOrder(`openid-adm-race-${String(guard)}`);
    await issueTickets(p.deps, o.orderId, p.clock.now());
    const [t] = await boundTickets(o.fan.token);
    if (!guard) {
      const proto = RefundService.prototype as unknown as {
        refuseIfCheckedIn: (conn: PoolConnection, orderId: string) => Promise<void>;
      };
      jest.spyOn(proto, 'refuseIfCheckedIn').mockImplementation(async (conn, orderId) => {
        const [[row]] = await conn.query<RowDataPacket[]>(
          'SELECT COUNT(*) n FROM tickets t JOIN checkins c ON c.ticket_id = t.id WHERE t.order_id = ?',
          [orderId],
        );
        if (Number(row!.n) > 0) throw new Error('checked in');
      });
    }
    const pause = pauseRefundAfterCheck();
    const refunding = refund(o);
    await pause.reached;
    let scanned: string | undefined;
    const scanning = scan(t!).then((r) => (scanned = r.body.result));
    await new Promise((r) => setTimeout(r, 300));
    expect(scanned).toBe(guard ? undefined : 'admitted');
    pause.release();
    expect((await refunding).status).toBe(200);
    await scanning;
    const [[used]] = await p.deps.db.query<RowDataPacket[]>(
      'SELECT COUNT(*) n FROM checkins c JOIN tickets t ON t.id = c.ticket_id WHERE t.order_id = ?',
      [o.orderId],
    );
    if (guard) {
      expect(scanned).toBe('refunded');
      expect(Number(used!.n)).toBe(0); // the refund is never of a used ticket
    } else {
      expect(Number(used!.n)).toBe(1); // the race: a ticket used at the gate, and refunded
    }
  });

  it('a scan that locked the ticket first wins, and the refund is then refused', async () => {
    const o = await paidOrder('openid-adm-race2');
    await issueTickets(p.deps, o.orderId, p.clock.now());
    const [t] = await boundTickets(o.fan.token);
    expect((await scan(t!)).body.result).toBe('admitted');
    const r = await refund(o);
    expect(r.body.error).toMatchObject({ code: 'ORDER_STATE_INVALID', message: '门票已检票入场，不能退票' });
  });
});
