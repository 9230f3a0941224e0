import type { RowDataPacket } from 'mysql2/promise';
import { audit } from './helpers/auditor';
import { createSession, type SessionFixture } from './helpers/fixtures';
import { consentTo } from './helpers/consent';
import { createPayEnv, type PayEnv } from './helpers/pay-env';

/** Payment faults from the reliability checklist, against the simulator's fault switches. */
let p: PayEnv;
let s: SessionFixture;
let seat = 0;

beforeAll(async () => {
  p = await createPayEnv();
  s = await createSession(p.deps, { seats: 60 });
});
afterAll(() => p.close());
afterEach(() => p.sim.resetFaults());

const one = async <T = any>(sql: string, params: unknown[]) =>
  (await p.deps.db.query<RowDataPacket[]>(sql, params))[0]![0] as T;

const orderAndPrepay = (openid: string, seats = 1) =>
  p.orderAndPrepay(openid, { sessionId: s.sessionId, seatIds: s.seatIds.slice(seat, (seat += seats)) });

const statusOf = async (orderNo: string) =>
  (await one<{ status: number }>('SELECT status FROM orders WHERE order_no = ?', [orderNo])).status;
const ticketed = (orderNo: string) =>
  p.until(async () => (await statusOf(orderNo)) === 3, `order ${orderNo} ticketed`);

it('50 copies of one notification at once: one payment, one paid transition, one set of tickets, all 204', async () => {
  const o = await orderAndPrepay('openid-dup', 2);
  p.sim.setFaults({ duplicate: 50 });
  p.sim.pay(o.payParams);
  await ticketed(o.orderNo);
  const n = await p.until(async () => {
    const rec = p.sim.notifications().find((x) => x.out_trade_no === o.orderNo && x.kind !== 'raw');
    return rec && rec.attempts.length >= 50 && rec;
  }, '50 deliveries');
  expect(n.attempts.every((a) => a.status === 204)).toBe(true);
  const counts = await one(
    `SELECT (SELECT COUNT(*) FROM payments WHERE order_id = o.id) pays,
            (SELECT COUNT(*) FROM outbox WHERE topic = 'order.paid' AND aggregate_id = o.id) paid_msgs,
            (SELECT COUNT(*) FROM tickets WHERE order_id = o.id) tickets
       FROM orders o WHERE order_no = ?`,
    [o.orderNo],
  );
  expect({
    pays: Number(counts.pays),
    paid: Number(counts.paid_msgs),
    tickets: Number(counts.tickets),
  }).toEqual({ pays: 1, paid: 1, tickets: 2 });
});

it('a database error mid-notification answers 5xx, never 2xx, and the retry succeeds', async () => {
  const o = await orderAndPrepay('openid-dberr');
  await p.deps.db.query('RENAME TABLE payments TO payments_away');
  try {
    p.sim.pay(o.payParams);
    await p.until(
      async () =>
        p.sim
          .notifications()
          .find((x) => x.out_trade_no === o.orderNo)
          ?.attempts.some((a) => a.status === 500),
      'a 500 answer',
    );
  } finally {
    await p.deps.db.query('RENAME TABLE payments_away TO payments');
  }
  const rec = p.sim.notifications().find((x) => x.out_trade_no === o.orderNo)!;
  expect(rec.attempts[0]!.status).toBe(500);
  await ticketed(o.orderNo);
  expect(rec.attempts.at(-1)!.status).toBe(204);
});

it('notifications that never arrive: the query fallback finds the payment and tickets follow', async () => {
  const o = await orderAndPrepay('openid-dropped');
  p.sim.setFaults({ drop: true });
  p.sim.pay(o.payParams);
  expect(await p.deps.payments.checkPending(p.clock.now(), 60_000)).toBe(0); // too early to ask
  const later = new Date(p.clock.now().getTime() + 61_000);
  expect(await p.deps.payments.checkPending(later, 60_000)).toBe(1);
  await ticketed(o.orderNo);
});

it('notifications out of order and delayed still end in one set of tickets each', async () => {
  const a = await orderAndPrepay('openid-ooo-a');
  const b = await orderAndPrepay('openid-ooo-b');
  p.sim.setFaults({ outOfOrder: 2, delayMs: 50 });
  p.sim.pay(a.payParams);
  p.sim.pay(b.payParams);
  await Promise.all([ticketed(a.orderNo), ticketed(b.orderNo)]);
});

it('a second payment for an already paid order is refunded automatically', async () => {
  const o = await orderAndPrepay('openid-double');
  p.sim.pay(o.payParams);
  await ticketed(o.orderNo);
  const r = await p.sim.sendRawNotification({
    outTradeNo: o.orderNo,
    resource: { transaction_id: '4200000000000000000000000099' },
  });
  expect(r.status).toBe(204);
  const refund = await one(
    "SELECT kind, amount_fen FROM refunds WHERE order_id = (SELECT id FROM orders WHERE order_no = ?) AND kind = 'duplicate'",
    [o.orderNo],
  );
  expect(refund).toMatchObject({ kind: 'duplicate', amount_fen: o.order.amountFen });
  expect(await statusOf(o.orderNo)).toBe(3); // the order and its tickets stand
});

describe('late payments (the order was cancelled before the money came)', () => {
  /** WeChat took the money although we cancelled (its close raced with the payment). */
  async function cancelWithoutClosing(o: { fan: { token: string }; orderNo: string }) {
    // The cancel guard is payments' settleBeforeCancel: here it does not close the WeChat order.
    const skipClose = jest.spyOn(p.deps.payments, 'settleBeforeCancel').mockResolvedValue('cancel');
    try {
      expect(
        (await p.api.call('POST', `/api/v1/orders/${o.orderNo}/cancel`, { token: o.fan.token })).body.status,
      ).toBe('cancelled');
    } finally {
      skipClose.mockRestore();
    }
  }

  it('seats still free: taken again and ticketed', async () => {
    const o = await orderAndPrepay('openid-late-free', 2);
    await cancelWithoutClosing(o);
    p.sim.pay(o.payParams);
    await ticketed(o.orderNo);
    expect(await audit(p.deps, s.sessionId, p.clock.now().getTime())).toEqual([]);
  });

  it('seats resold meanwhile: the whole payment is refunded and the buyer told', async () => {
    const o = await orderAndPrepay('openid-late-gone');
    await consentTo(p, o.fan, 'openid-late-gone', ['refund']);
    await cancelWithoutClosing(o);
    const rival = await p.login('openid-late-rival');
    const taken = await p.api.call('POST', '/api/v1/orders', {
      token: rival.token,
      body: { sessionId: s.sessionId, seatIds: [o.order.items[0].seatId] },
    });
    expect(taken.status).toBe(201);
    p.sim.pay(o.payParams);
    const refund = await p.until(
      async () =>
        one<{ status: number; amount_fen: number }>(
          "SELECT status, amount_fen FROM refunds WHERE order_id = (SELECT id FROM orders WHERE order_no = ?) AND kind = 'late'",
          [o.orderNo],
        ).then((r) => r?.status === 2 && r),
      'the late refund to succeed',
    );
    expect(refund.amount_fen).toBe(o.order.amountFen);
    const pay = await one(
      'SELECT outcome, refunded_fen, amount_fen FROM payments WHERE order_id = (SELECT id FROM orders WHERE order_no = ?)',
      [o.orderNo],
    );
    expect(pay).toMatchObject({ outcome: 'late_refund', refunded_fen: o.order.amountFen });
    expect(await statusOf(o.orderNo)).toBe(4);
    await p.until(
      async () => p.sim.messages().some((m) => JSON.stringify(m).includes(o.orderNo)),
      'a notice to the buyer',
    );
    expect(await audit(p.deps, s.sessionId, p.clock.now().getTime())).toEqual([]);
  });
});
