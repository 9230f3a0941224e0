import type { RowDataPacket } from 'mysql2/promise';
import { sweepRefundedSeats } from '../src/jobs/refunded-seats';
import { resendStuckRefunds, sweepPaidWithoutTickets } from '../src/jobs/stuck-money';
import { issueTickets } from '../src/tickets/service';
import { audit } from './helpers/auditor';
import type { SessionFixture } from './helpers/fixtures';
import { payEnvWithSession, type PayEnv } from './helpers/pay-env';
import { abnormalRefund, adminRefund, refundNosAtWechat } from './helpers/refund-steps';

/**
 * Recovery that runs by itself. Consumers are off: each test plays the part of a consumer that
 * never ran (or always failed), then runs the sweeper that must heal it.
 */
let p: PayEnv;
let s: SessionFixture;
let seat = 0;

beforeAll(async () => {
  ({ p, s } = await payEnvWithSession(20, { consumers: false }));
});
afterAll(() => p.close());
afterEach(() => p.sim.resetFaults());

const one = async (sql: string, params: unknown[]) =>
  (await p.deps.db.query<RowDataPacket[]>(sql, params))[0][0]!;

/** A paid order (the notification applied); tickets not issued. */
async function paidOrder(openid: string, n = 1) {
  const seatIds = s.seatIds.slice(seat, (seat += n));
  const { fan, orderNo, payParams } = await p.orderAndPrepay(openid, { sessionId: s.sessionId, seatIds });
  p.sim.pay(payParams);
  await p.until(
    async () => (await one('SELECT status FROM orders WHERE order_no = ?', [orderNo])).status === 2,
    'paid',
  );
  const orderId = String((await one('SELECT id FROM orders WHERE order_no = ?', [orderNo])).id);
  return { fan, orderNo, orderId, seatIds };
}

const soldSeats = async () =>
  (await p.api.call('GET', `/api/v1/sessions/${s.sessionId}/seat-states`)).body.sold as string[];

describe('sold seats of refunded orders', () => {
  it('go back on sale when the Redis release after the refund never happened', async () => {
    const o = await paidOrder('openid-sweep-seats', 2);
    await issueTickets(p.deps, o.orderId, p.clock.now());
    const r = await adminRefund(p, o.orderId);
    await p.deps.refunds.execute(r.id, p.clock.now());
    await p.until(
      async () => (await one('SELECT status FROM orders WHERE id = ?', [o.orderId])).status === 5,
      'refunded',
    );
    // The inventory.release message waits in RabbitMQ with no consumer (or failed every try):
    expect(await soldSeats()).toEqual(expect.arrayContaining(o.seatIds));
    expect(await sweepRefundedSeats(p.deps, [s.sessionId])).toBe(1);
    expect(await soldSeats()).not.toEqual(expect.arrayContaining([o.seatIds[0]]));
    expect(await sweepRefundedSeats(p.deps, [s.sessionId])).toBe(0); // idempotent
    expect(await audit(p.deps, s.sessionId, p.clock.now().getTime())).toEqual([]);
  });
});

describe('sold seats of per-ticket refunds', () => {
  it('go back on sale when the Redis release of a refunded ticket never happened; the others stay sold', async () => {
    const o = await paidOrder('openid-sweep-ticket', 2);
    await issueTickets(p.deps, o.orderId, p.clock.now());
    const [[t]] = await p.deps.db.query<RowDataPacket[]>(
      'SELECT ticket_no FROM tickets WHERE order_id = ? ORDER BY id LIMIT 1',
      [o.orderId],
    );
    const r = await adminRefund(p, o.orderId, [t!.ticket_no]);
    await p.deps.refunds.execute(r.id, p.clock.now());
    await p.until(
      async () => (await one('SELECT status FROM refunds WHERE id = ?', [r.id])).status === 2,
      'refund succeeded',
    );
    expect((await one('SELECT status FROM orders WHERE id = ?', [o.orderId])).status).toBe(3); // still ticketed
    expect(await soldSeats()).toEqual(expect.arrayContaining(o.seatIds));
    expect(await sweepRefundedSeats(p.deps, [s.sessionId])).toBe(1);
    const sold = await soldSeats();
    expect(sold).not.toContain(o.seatIds[0]);
    expect(sold).toContain(o.seatIds[1]);
    expect(await sweepRefundedSeats(p.deps, [s.sessionId])).toBe(0); // idempotent
    expect(await audit(p.deps, s.sessionId, p.clock.now().getTime())).toEqual([]);
  });
});

describe('paid orders without tickets', () => {
  it('get their tickets from the sweeper, once, when order.paid never reached a consumer', async () => {
    const o = await paidOrder('openid-sweep-paid', 2);
    const later = new Date(p.clock.now().getTime() + 3 * 60_000);
    expect(await sweepPaidWithoutTickets(p.deps, p.clock.now(), 120_000)).toBe(0); // too recent: the consumer's turn
    expect(await sweepPaidWithoutTickets(p.deps, later, 120_000)).toBe(1);
    expect(await sweepPaidWithoutTickets(p.deps, later, 120_000)).toBe(0);
    expect((await one('SELECT status FROM orders WHERE id = ?', [o.orderId])).status).toBe(3);
    expect(Number((await one('SELECT COUNT(*) n FROM tickets WHERE order_id = ?', [o.orderId])).n)).toBe(2);
  });
});

describe('refunds stuck in a non-final state', () => {
  const refundRow = (orderId: string) =>
    one(
      'SELECT id, status, attempts, next_attempt_at, last_error, out_refund_no FROM refunds WHERE order_id = ?',
      [orderId],
    );

  it('REQUESTED after NOT_ENOUGH and SYSTEM_ERROR is sent again after its backoff, with the same out_refund_no, once accepted', async () => {
    const o = await paidOrder('openid-sweep-refund');
    await issueTickets(p.deps, o.orderId, p.clock.now());
    const r = await adminRefund(p, o.orderId);
    p.sim.setFaults({ refundNotEnough: true });
    await expect(p.deps.refunds.execute(r.id, p.clock.now())).rejects.toThrow(/NOT_ENOUGH/);
    let row = await refundRow(o.orderId);
    expect(row).toMatchObject({ status: 0, attempts: 1, last_error: expect.stringContaining('NOT_ENOUGH') });
    const at = (min: number) => new Date(p.clock.now().getTime() + min * 60_000);
    expect(await resendStuckRefunds(p.deps, at(5), 60_000)).toBe(0); // NOT_ENOUGH waits 10 minutes
    p.sim.setFaults({ refundNotEnough: false, failNextRequests: 1 });
    expect(await resendStuckRefunds(p.deps, at(11), 60_000)).toBe(0); // SYSTEM_ERROR this time
    row = await refundRow(o.orderId);
    expect(row).toMatchObject({ status: 0, attempts: 2 });
    expect(await resendStuckRefunds(p.deps, at(60), 60_000)).toBe(1);
    await p.until(async () => (await refundRow(o.orderId)).status === 2, 'refund succeeded');
    expect(refundNosAtWechat(p, o.orderNo)).toEqual([row.out_refund_no]);
    expect(await resendStuckRefunds(p.deps, at(600), 60_000)).toBe(0);
  });

  it('a refund whose result was lost is settled by the refund check, however many ABNORMAL refunds came before it', async () => {
    const refundOf = async (openid: string, faults: Parameters<typeof p.sim.setFaults>[0]) => {
      const o = await paidOrder(openid);
      await issueTickets(p.deps, o.orderId, p.clock.now());
      p.sim.setFaults(faults);
      const r = await adminRefund(p, o.orderId);
      await p.deps.refunds.execute(r.id, p.clock.now());
      return o;
    };
    // Refunds with an operator (ABNORMAL stays so until one acts), older than the one that matters.
    const abnormal = await refundOf('openid-check-abnormal', { refundOutcome: 'ABNORMAL' });
    await p.until(async () => (await refundRow(abnormal.orderId)).status === 3, 'abnormal');
    // More than a page of them (a cancelled session's burst meeting a card problem): copies of
    // that refund under numbers WeChat does not know (it answers 404 for them: nothing changes).
    const { id } = await refundRow(abnormal.orderId);
    for (let n = 1; n <= 60; n++)
      await p.deps.db.query(
        `INSERT INTO refunds (order_id, payment_id, kind, seq, out_refund_no, amount_fen, fee_fen, status,
                              reason, requested_by, created_at)
         SELECT order_id, payment_id, kind, seq + ?, CONCAT(out_refund_no, 'C', ?), amount_fen, fee_fen,
                status, reason, requested_by, created_at FROM refunds WHERE id = ?`,
        [n, n, id],
      );
    // This one succeeds at WeChat, but the notification is lost: only the refund check learns it.
    p.sim.setFaults({ refundOutcome: 'SUCCESS' });
    const lost = await refundOf('openid-check-lost', { drop: true });
    const out = (await refundRow(lost.orderId)).out_refund_no;
    await p.until(
      async () => p.sim.refunds().some((x) => x.out_refund_no === out && x.status === 'SUCCESS'),
      'done at WeChat',
    );
    p.sim.setFaults({ drop: false });
    expect((await refundRow(lost.orderId)).status).toBe(1);
    const later = new Date(p.clock.now().getTime() + 10 * 60_000);
    await p.deps.refunds.checkProcessing(later, 0);
    expect((await refundRow(lost.orderId)).status).toBe(2);
  });

  it('ABNORMAL is handed to an operator (refund_cases) and the fan is told, once; tickets stay inadmissible', async () => {
    const o = await paidOrder('openid-sweep-abnormal');
    await abnormalRefund(p, o.orderId);
    const later = new Date(p.clock.now().getTime() + 10 * 60_000);
    await p.deps.refunds.checkProcessing(later, 0); // re-queried: still ABNORMAL, nothing new
    const [cases] = await p.deps.db.query<RowDataPacket[]>(
      'SELECT reason, state FROM refund_cases WHERE order_id = ?',
      [o.orderId],
    );
    expect(cases).toEqual([{ reason: 'abnormal', state: 'open' }]);
    const [notices] = await p.deps.db.query<RowDataPacket[]>(
      "SELECT payload FROM outbox WHERE topic = 'notice.send' AND payload LIKE '%refund_delayed%' AND payload LIKE ?",
      [`%"${o.orderId}"%`],
    );
    expect(notices).toHaveLength(1);
    expect(
      Number((await one('SELECT COUNT(*) n FROM tickets WHERE order_id = ? AND status <> 3', [o.orderId])).n),
    ).toBe(0);
  });
});
