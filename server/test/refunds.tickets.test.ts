import type { PoolConnection, RowDataPacket } from 'mysql2/promise';
import { makeCode, manualKeyOf } from '@showtix/shared-types/dist/ticket-code';
import { RefundService } from '../src/refunds/service';
import { pauseRefundAfterCheck } from './helpers/refund-pause';
import { beijingDate } from '../src/payments/reconcile';
import { audit } from './helpers/auditor';
import { assignStaff, createSession, createUsers, type SessionFixture } from './helpers/fixtures';
import { createPayEnv, type PayEnv } from './helpers/pay-env';
import { newDevice, type Device } from './helpers/gate';

/**
 * Per-ticket refunds (issue 16): one ticket of a four-ticket order refunded under the show's
 * tiers; the other three stay admissible; every fen accounted for.
 */
let p: PayEnv;
let s: SessionFixture;
let staffToken: string;
let seat = 0;
const FEE = 10; // percent, the tier in force for the whole test

beforeAll(async () => {
  p = await createPayEnv();
  s = await createSession(p.deps, { seats: 24, refundRules: [{ hoursBeforeStart: 0, feePercent: FEE }] });
  const [staff] = await createUsers(p.deps, 1);
  await assignStaff(p.deps, staff!, s.showId);
  staffToken = await p.api.tokenFor(staff!);
});
afterAll(() => p.close());
afterEach(() => {
  jest.restoreAllMocks();
  p.sim.resetFaults();
});

interface Bound {
  ticketId: string;
  binding: string;
  device: Device;
}
type Fan = { token: string };

const one = async (sql: string, params: unknown[]) =>
  (await p.deps.db.query<RowDataPacket[]>(sql, params))[0]![0]!;
const getOrder = (fan: Fan, orderNo: string) =>
  p.api.call('GET', `/api/v1/orders/${orderNo}`, { token: fan.token }).then((r) => r.body);

/** A ticketed order of n seats, each ticket bound to a phone of its own (so it can be scanned). */
async function ticketedOrder(openid: string, n = 4) {
  const body = { sessionId: s.sessionId, seatIds: s.seatIds.slice(seat, (seat += n)) };
  const { fan, order, payParams } = await p.orderAndPrepay(openid, body);
  p.sim.pay(payParams);
  await p.until(async () => (await getOrder(fan, order.orderNo)).status === 'ticketed', 'tickets');
  const tickets: Bound[] = [];
  for (const item of (await getOrder(fan, order.orderNo)).items) {
    const device = newDevice();
    const b = await p.api.call('POST', `/api/v1/tickets/${item.ticketId}/bind`, {
      token: fan.token,
      body: { publicKey: device.pub, manualKey: manualKeyOf(device.priv, item.ticketId) },
    });
    tickets.push({ ticketId: item.ticketId, binding: b.body.binding, device });
  }
  const orderId = String((await one('SELECT id FROM orders WHERE order_no = ?', [order.orderNo])).id);
  return { fan, orderNo: order.orderNo as string, orderId, order, tickets };
}
type Ticketed = Awaited<ReturnType<typeof ticketedOrder>>;

const refund = (o: Ticketed, ticketIds?: string[]) =>
  p.api.call('POST', `/api/v1/orders/${o.orderNo}/refund`, {
    token: o.fan.token,
    body: ticketIds ? { reason: '朋友去不了', ticketIds } : {},
  });
const scan = (t: Bound) =>
  p.api.call('POST', '/api/v1/checkin', {
    token: staffToken,
    body: {
      qr: makeCode(t.binding, t.device.priv, p.clock.now().getTime()),
      gate: 'A1',
      sessionId: s.sessionId,
    },
  });
const refundsOf = async (orderId: string) =>
  (
    await p.deps.db.query<RowDataPacket[]>(
      'SELECT id, seq, out_refund_no, amount_fen, fee_fen, status FROM refunds WHERE order_id = ? ORDER BY id',
      [orderId],
    )
  )[0];
const settled = (o: Ticketed, n: number) =>
  p.until(
    async () => (await refundsOf(o.orderId)).filter((r) => r.status === 2).length === n,
    `${n} refunds`,
  );

it('refunds one ticket of four: the other three are admitted, the refunded one refused, its seat back on sale', async () => {
  const o = await ticketedOrder('openid-tr-one');
  const [gone, ...kept] = o.tickets;
  const price = o.order.items[0].priceFen as number;
  const fee = Math.floor((price * FEE) / 100);

  const first = await refund(o, [gone!.ticketId]);
  expect(first.status).toBe(200);
  expect(first.body.status).toBe('ticketed');
  expect(first.body.refund).toMatchObject({ amountFen: price - fee, feeFen: fee });
  // Voided from the moment it is asked for: the gate refuses it before WeChat has answered.
  expect((await scan(gone!)).body.result).toBe('refunded');
  // Retried: the same refund, nothing refunded twice.
  const again = await refund(o, [gone!.ticketId]);
  expect(again.status).toBe(200);
  expect(await refundsOf(o.orderId)).toHaveLength(1);

  await settled(o, 1);
  const after = await getOrder(o.fan, o.orderNo);
  expect(after.status).toBe('ticketed'); // three tickets still valid
  expect(after.items.map((i: { refundStatus?: string }) => i.refundStatus)).toEqual([
    'succeeded',
    undefined,
    undefined,
    undefined,
  ]);
  for (const t of kept) expect((await scan(t)).body.result).toBe('admitted');
  expect((await scan(gone!)).body.result).toBe('refunded');
  const tickets = (await p.api.call('GET', '/api/v1/tickets', { token: o.fan.token })).body.items;
  expect(tickets.filter((t: { status: string }) => t.status === 'voided')).toHaveLength(1);

  const pay = await one('SELECT amount_fen, refunded_fen, status FROM payments WHERE order_id = ?', [
    o.orderId,
  ]);
  expect(pay).toMatchObject({ amount_fen: price * 4, refunded_fen: price - fee });
  const seatId = o.order.items[0].seatId;
  const claims = await one('SELECT COUNT(*) n FROM seat_claims WHERE order_id = ?', [o.orderId]);
  expect(Number(claims.n)).toBe(3);
  await p.until(async () => {
    const st = await p.api.call('GET', `/api/v1/sessions/${s.sessionId}/seat-states`);
    p.clock.advance(600);
    return !st.body.sold.includes(seatId) && st.body.sold.includes(o.order.items[1].seatId);
  }, 'the refunded seat back on sale, the others still sold');
  expect(await audit(p.deps, s.sessionId, p.clock.now().getTime())).toEqual([]);
  // Redis rebuilt from MySQL agrees too: the order's record counts its three live units only.
  await p.deps.inventory.rebuild(s.sessionId, p.clock.now().getTime());
  expect(await audit(p.deps, s.sessionId, p.clock.now().getTime())).toEqual([]);
});

it('refuses an already refunded ticket and a checked-in one; the rest of the order refunds to the last fen', async () => {
  const o = await ticketedOrder('openid-tr-rest');
  const [a, b, c, d] = o.tickets;
  expect((await refund(o, [a!.ticketId])).status).toBe(200);
  const twice = await refund(o, [a!.ticketId, b!.ticketId]);
  expect(twice.status).toBe(409);
  expect(twice.body.error.code).toBe('TICKET_ALREADY_REFUNDED');
  expect((await scan(d!)).body.result).toBe('admitted');
  const used = await refund(o, [d!.ticketId]);
  expect(used.status).toBe(409);
  expect(used.body.error.code).toBe('TICKET_CHECKED_IN');
  const foreign = await refund(o, ['T' + '2'.repeat(19)]);
  expect(foreign.status).toBe(404);
  expect((await refund(o, [b!.ticketId, c!.ticketId])).status).toBe(200);
  await settled(o, 2);
  const rows = await refundsOf(o.orderId);
  // Each refund its own out_refund_no at WeChat.
  expect(new Set(rows.map((r) => r.out_refund_no)).size).toBe(2);
  expect(rows.map((r) => r.seq)).toEqual([1, 2]);
  expect((await getOrder(o.fan, o.orderNo)).status).toBe('ticketed'); // d is still a used, valid ticket
  const pay = await one('SELECT amount_fen, refunded_fen FROM payments WHERE order_id = ?', [o.orderId]);
  expect(pay.refunded_fen).toBe(rows.reduce((sum, r) => sum + Number(r.amount_fen), 0));
  expect(pay.refunded_fen).toBeLessThan(pay.amount_fen);
  // MySQL gave the seats back in the refund's transaction; Redis follows through the outbox
  // (inventory.release.units), so the audit waits for it (it once ran first, under TZ=Asia/Shanghai).
  const clean = async () => (await audit(p.deps, s.sessionId, p.clock.now().getTime())).length === 0;
  await p.until(clean, 'Redis released the refunded seats').catch(() => undefined);
  expect(await audit(p.deps, s.sessionId, p.clock.now().getTime())).toEqual([]);
});

it('the last tickets refunded make the order refunded; a whole-order request refunds only what is left', async () => {
  const o = await ticketedOrder('openid-tr-last', 2);
  expect((await refund(o, [o.tickets[0]!.ticketId])).status).toBe(200);
  await settled(o, 1);
  const whole = await refund(o);
  expect(whole.status).toBe(200);
  await settled(o, 2);
  const done = await getOrder(o.fan, o.orderNo);
  expect(done.status).toBe('refunded');
  expect(done.refunds).toHaveLength(2);
  const pay = await one('SELECT amount_fen, refunded_fen FROM payments WHERE order_id = ?', [o.orderId]);
  const fees = (await refundsOf(o.orderId)).reduce((sum, r) => sum + Number(r.fee_fen), 0);
  expect(pay.refunded_fen + fees).toBe(pay.amount_fen); // every fen: back to the fan or kept as the fee
  expect((await refund(o)).status).toBe(200); // asked again: the latest refund, nothing more
  expect(await refundsOf(o.orderId)).toHaveLength(2);
  await p.until(
    async () => (await audit(p.deps, s.sessionId, p.clock.now().getTime())).length === 0,
    'audit',
  );
});

it('a closed refund gives the ticket back, and it can be refunded again under a new out_refund_no', async () => {
  const o = await ticketedOrder('openid-tr-closed', 2);
  p.sim.setFaults({ refundOutcome: 'CLOSED' });
  await refund(o, [o.tickets[0]!.ticketId]);
  await p.until(async () => (await refundsOf(o.orderId))[0]?.status === 4, 'closed');
  expect((await getOrder(o.fan, o.orderNo)).items[0].refundStatus).toBe('closed');
  p.sim.resetFaults();
  expect((await refund(o, [o.tickets[0]!.ticketId])).status).toBe(200);
  await settled(o, 1);
  const rows = await refundsOf(o.orderId);
  expect(rows[0]!.out_refund_no).not.toBe(rows[1]!.out_refund_no);
  expect((await scan(o.tickets[1]!)).body.result).toBe('admitted');
});

it('refuses a refund that would exceed what was paid, changing nothing (asserted in MySQL)', async () => {
  const o = await ticketedOrder('openid-tr-over', 2);
  // An item priced above the whole payment (a corrupt row): the refund must not go through.
  const [[item]] = await p.deps.db.query<RowDataPacket[]>(
    'SELECT id FROM order_items WHERE order_id = ? ORDER BY id LIMIT 1',
    [o.orderId],
  );
  await p.deps.db.query('UPDATE order_items SET price_fen = price_fen * 10 WHERE id = ?', [item!.id]);
  const over = await p.deps.refunds
    .refundOrder({
      orderId: o.orderId,
      by: { kind: 'admin', id: '1' },
      now: p.clock.now(),
      ticketIds: [o.tickets[0]!.ticketId],
    })
    .catch((e: { code?: string }) => e.code);
  expect(over).toBe('REFUND_EXCEEDS_PAID');
  expect(await refundsOf(o.orderId)).toHaveLength(0);
  expect((await scan(o.tickets[0]!)).body.result).toBe('admitted'); // still valid
});

it('the reconciliation of the day balances with several refunds per order', async () => {
  const today = beijingDate(p.clock.now());
  const report = await p.deps.reconciler.reconcile(today, p.clock.now());
  // Every refund line of the bill is one of ours with the same amount, and every refund of ours
  // that succeeded today is in the bill.
  expect(report?.unmatched).toEqual([]);
  const [[ours]] = await p.deps.db.query<RowDataPacket[]>(
    "SELECT COUNT(*) n FROM refunds WHERE kind = 'order'",
  );
  expect(report?.wechatRefunds).toBe(Number(ours!.n));
});

describe('a per-ticket refund racing a check-in of the same ticket (pause the refund after its check)', () => {
  /**
   * Guard off (the chosen tickets' locks taken away, check-ins counted by a plain read): the scan
   * admits during the pause and the used ticket is refunded anyway. Guard on: the scan waits for
   * the refund's commit and is refused; the order's other ticket is admitted all along.
   */
  it.each([
    ['off', false],
    ['on', true],
  ])('guard %s', async (_name, guard) => {
    const o = await ticketedOrder(`openid-tr-race-${String(guard)}`, 2);
    const [t, other] = o.tickets;
    if (!guard) {
      const proto = RefundService.prototype as unknown as {
        refuseIfCheckedIn: (conn: PoolConnection, orderId: string, itemIds?: string[]) => Promise<void>;
      };
      jest.spyOn(proto, 'refuseIfCheckedIn').mockImplementation(async (conn, _orderId, itemIds) => {
        const [[row]] = await conn.query<RowDataPacket[]>(
          'SELECT COUNT(*) n FROM tickets t JOIN checkins c ON c.ticket_id = t.id WHERE t.order_item_id IN (?)',
          [itemIds],
        );
        if (Number(row!.n) > 0) throw new Error('checked in');
      });
    }
    const pause = pauseRefundAfterCheck();
    const refunding = refund(o, [t!.ticketId]);
    await pause.reached;
    let scanned: string | undefined;
    const scanning = scan(t!).then((r) => (scanned = r.body.result));
    if (!guard) {
      await scanning; // nothing stops it: admitted while the refund is under way
      expect(scanned).toBe('admitted');
    } else {
      await new Promise((r) => setTimeout(r, 300));
      expect(scanned).toBeUndefined(); // waiting for the refund's ticket lock
    }
    pause.release();
    expect((await refunding).status).toBe(200);
    await scanning;
    const used = await one(
      'SELECT COUNT(*) n FROM checkins c JOIN tickets t ON t.id = c.ticket_id WHERE t.ticket_no = ?',
      [t!.ticketId],
    );
    // Guard off: a used ticket refunded (the defect). Guard on: refused at the gate, never used.
    expect(scanned).toBe(guard ? 'refunded' : 'admitted');
    expect(Number(used.n)).toBe(guard ? 0 : 1);
    expect((await scan(other!)).body.result).toBe('admitted');
  });
});
