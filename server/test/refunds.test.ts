import type { RowDataPacket } from 'mysql2/promise';
import { refundTerms } from '../src/refunds/rules';
import { audit } from './helpers/auditor';
import { createSession, type SessionFixture } from './helpers/fixtures';
import { createPayEnv, type PayEnv } from './helpers/pay-env';

const RULES = [
  { hoursBeforeStart: 168, feePercent: 0 },
  { hoursBeforeStart: 48, feePercent: 20 },
  { hoursBeforeStart: 0, feePercent: 100 },
];

describe('refund tiers', () => {
  const start = new Date('2027-01-10T12:00:00Z');
  const at = (h: number) => new Date(start.getTime() - h * 3_600_000);
  it('free until the first deadline, then a fee rounded down, then closed', () => {
    expect(refundTerms(RULES, start, at(200), 68_001)).toEqual({
      allowed: true,
      feePercent: 0,
      feeFen: 0,
      refundFen: 68_001,
    });
    expect(refundTerms(RULES, start, at(100), 68_001)).toEqual({
      allowed: true,
      feePercent: 20,
      feeFen: 13_600,
      refundFen: 54_401,
    });
    expect(refundTerms(RULES, start, at(10), 68_001).allowed).toBe(false);
    expect(refundTerms(RULES, start, at(-1), 68_001).allowed).toBe(false);
    expect(refundTerms([], start, at(500), 100).allowed).toBe(false);
  });
});

describe('refunding a ticketed order', () => {
  let p: PayEnv;
  let s: SessionFixture;
  let seat = 0;

  beforeAll(async () => {
    p = await createPayEnv();
    // the show starts in 30 days: the free tier applies now
    s = await createSession(p.deps, { seats: 20, refundRules: RULES });
  });
  afterAll(() => p.close());
  afterEach(() => p.sim.resetFaults());

  const one = async (sql: string, params: unknown[]) =>
    (await p.deps.db.query<RowDataPacket[]>(sql, params))[0]![0]!;

  async function ticketedOrder(openid: string, n = 2) {
    const body = { sessionId: s.sessionId, seatIds: s.seatIds.slice(seat, (seat += n)) };
    const { fan, order, payParams } = await p.orderAndPrepay(openid, body);
    p.sim.pay(payParams);
    await p.until(
      async () =>
        (await p.api.call('GET', `/api/v1/orders/${order.orderNo}`, { token: fan.token })).body.status ===
        'ticketed',
      'tickets',
    );
    return { fan, order };
  }
  const refund = (o: { fan: { token: string }; order: { orderNo: string } }) =>
    p.api.call('POST', `/api/v1/orders/${o.order.orderNo}/refund`, {
      token: o.fan.token,
      body: { reason: '行程有变' },
    });
  const getOrder = (o: { fan: { token: string }; order: { orderNo: string } }) =>
    p.api.call('GET', `/api/v1/orders/${o.order.orderNo}`, { token: o.fan.token }).then((r) => r.body);

  it('refunds in full under the free tier: tickets voided, seats back on sale, asked twice refunds once', async () => {
    const o = await ticketedOrder('openid-refund-free');
    const first = await refund(o);
    expect(first.status).toBe(200);
    expect(first.body.refund).toMatchObject({ amountFen: o.order.amountFen, feeFen: 0 });
    expect(first.body.refund.finishedAt).toBeUndefined(); // open: not settled yet
    expect((await refund(o)).status).toBe(200); // asked again: the same refund
    const done = await p.until(
      async () => (await getOrder(o)).status === 'refunded' && getOrder(o),
      'refunded',
    );
    expect(done.refund.status).toBe('succeeded');
    // The fan's refund timeline: asked at requestedAt, settled at finishedAt.
    expect(Date.parse(done.refund.finishedAt)).toBeGreaterThanOrEqual(Date.parse(done.refund.requestedAt));
    const tickets = await p.api.call('GET', '/api/v1/tickets', { token: o.fan.token });
    expect(tickets.body.items.every((t: { status: string }) => t.status === 'voided')).toBe(true);
    const pay = await one(
      'SELECT refunded_fen, amount_fen FROM payments WHERE order_id = (SELECT id FROM orders WHERE order_no = ?)',
      [o.order.orderNo],
    );
    expect(pay.refunded_fen).toBe(pay.amount_fen);
    expect(p.sim.refunds().filter((r) => r.out_trade_no === o.order.orderNo)).toHaveLength(1);
    await p.until(async () => {
      const st = await p.api.call('GET', `/api/v1/sessions/${s.sessionId}/seat-states`);
      p.clock.advance(600);
      return !st.body.sold.includes(o.order.items[0].seatId);
    }, 'the seats back on sale');
    expect(await audit(p.deps, s.sessionId, p.clock.now().getTime())).toEqual([]);
  });

  it('charges the fee of the tier in force, and refuses once refunds are closed', async () => {
    const o = await ticketedOrder('openid-refund-fee', 1);
    const c = await ticketedOrder('openid-refund-closed', 1);
    const startsIn = 30 * 24 * 3_600_000;
    p.clock.advance(startsIn - 100 * 3_600_000); // 100 hours before the show
    try {
      const r = await refund(o);
      expect(r.body.refund).toMatchObject({
        feeFen: Math.floor(o.order.amountFen * 0.2),
        amountFen: o.order.amountFen - Math.floor(o.order.amountFen * 0.2),
      });
      p.clock.advance(90 * 3_600_000); // 10 hours before
      const closed = await refund(c);
      expect(closed.status).toBe(409);
      expect(closed.body.error.code).toBe('REFUND_NOT_ALLOWED');
    } finally {
      p.clock.set(Math.floor(Date.now() / 1000) * 1000);
    }
  });

  it('ABNORMAL is not final (tickets stay locked); CLOSED gives the tickets back', async () => {
    const a = await ticketedOrder('openid-refund-abnormal', 1);
    p.sim.setFaults({ refundOutcome: 'ABNORMAL' });
    await refund(a);
    await p.until(async () => (await getOrder(a)).refund?.status === 'abnormal', 'abnormal');
    const locked = await p.api.call('GET', '/api/v1/tickets', { token: a.fan.token });
    expect(locked.body.items[0].status).toBe('refunding');

    const c = await ticketedOrder('openid-refund-closed2', 1);
    p.sim.setFaults({ refundOutcome: 'CLOSED' });
    await refund(c);
    await p.until(async () => (await getOrder(c)).refund?.status === 'closed', 'closed');
    expect((await getOrder(c)).status).toBe('ticketed');
    const back = await p.api.call('GET', '/api/v1/tickets', { token: c.fan.token });
    expect(back.body.items[0].status).toBe('valid');
  });

  it("refuses refunds of pending orders and of other people's orders", async () => {
    const fan = await p.login('openid-refund-pending');
    const other = await p.login('openid-refund-other');
    const order = (
      await p.api.call('POST', '/api/v1/orders', {
        token: fan.token,
        body: { sessionId: s.sessionId, seatIds: [s.seatIds[seat++]] },
      })
    ).body;
    expect(
      (await p.api.call('POST', `/api/v1/orders/${order.orderNo}/refund`, { token: fan.token, body: {} }))
        .body.error.code,
    ).toBe('ORDER_STATE_INVALID');
    expect(
      (await p.api.call('POST', `/api/v1/orders/${order.orderNo}/refund`, { token: other.token, body: {} }))
        .status,
    ).toBe(404);
  });
});
