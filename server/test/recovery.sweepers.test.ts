import type { RowDataPacket } from 'mysql2/promise';
import { sweepRefundedSeats } from '../src/jobs/refunded-seats';
import { issueTickets } from '../src/tickets/service';
import { audit } from './helpers/auditor';
import { createSession, type SessionFixture } from './helpers/fixtures';
import { createPayEnv, type PayEnv } from './helpers/pay-env';

/**
 * Recovery that runs by itself. Consumers are off: each test plays the part of a consumer that
 * never ran (or always failed), then runs the sweeper that must heal it.
 */
let p: PayEnv;
let s: SessionFixture;
let seat = 0;

beforeAll(async () => {
  p = await createPayEnv({ consumers: false });
  s = await createSession(p.deps, { seats: 20, refundRules: [{ hoursBeforeStart: 0, feePercent: 0 }] });
});
afterAll(() => p.close());
afterEach(() => p.sim.resetFaults());

const one = async (sql: string, params: unknown[]) =>
  (await p.deps.db.query<RowDataPacket[]>(sql, params))[0][0]!;

/** A paid order (the notification applied); tickets not issued. */
async function paidOrder(openid: string, n = 1) {
  const seatIds = s.seatIds.slice(seat, (seat += n));
  const { fan, orderNo, prepayId } = await p.orderAndPrepay(openid, { sessionId: s.sessionId, seatIds });
  p.sim.pay(prepayId);
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
    const r = await p.deps.refunds.refundOrder({
      orderId: o.orderId,
      by: { kind: 'admin', id: '1' },
      now: p.clock.now(),
    });
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
