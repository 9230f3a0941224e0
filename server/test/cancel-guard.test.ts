import type { RowDataPacket } from 'mysql2/promise';
import { createSession, type SessionFixture } from './helpers/fixtures';
import { createPayEnv, type PayEnv } from './helpers/pay-env';

/**
 * The cancel guard (close the WeChat order before an expired order's seats are freed) ends on a
 * definite WeChat state: it never keeps a pending order forever because close said ORDERPAID.
 */
let p: PayEnv;
let s: SessionFixture;
let seat = 0;

beforeAll(async () => {
  p = await createPayEnv({ consumers: false });
  s = await createSession(p.deps, { seats: 10 });
});
afterAll(() => p.close());
afterEach(() => p.sim.resetFaults());

const statusOf = async (orderNo: string) =>
  Number(
    (await p.deps.db.query<RowDataPacket[]>('SELECT status FROM orders WHERE order_no = ?', [orderNo]))[0][0]!
      .status,
  );

/** Past its hold (the clock stays: WeChat's signed answers are checked against it). */
const expireNow = (id: string) =>
  p.deps.db.query('UPDATE orders SET expire_at = ? WHERE id = ?', [
    new Date(p.clock.now().getTime() - 60_000),
    id,
  ]);

it('close answers ORDERPAID but the trade was refunded at WeChat: the expired order is cancelled, not kept forever', async () => {
  p.sim.setFaults({ drop: true }); // the payment notification never comes
  const { order, orderNo, payParams } = await p.orderAndPrepay('openid-guard-refund', {
    sessionId: s.sessionId,
    seatIds: [s.seatIds[seat++]],
  });
  p.sim.pay(payParams);
  // the money went back at WeChat (say, from the merchant platform): the trade reads REFUND
  await p.deps.pay.refund({
    orderNo,
    outRefundNo: `RX${orderNo}`,
    refundFen: order.amountFen,
    totalFen: order.amountFen,
    reason: 'test',
  });
  const [[row]] = await p.deps.db.query<RowDataPacket[]>('SELECT id FROM orders WHERE order_no = ?', [
    orderNo,
  ]);
  await expireNow(String(row!.id));
  let cancelled = false;
  for (let run = 0; run < 3 && !cancelled; run++)
    cancelled = await p.deps.orders.expire(String(row!.id), p.clock.now());
  expect(cancelled).toBe(true);
  expect(await statusOf(orderNo)).toBe(4);
});

it('close answers ORDERPAID and the trade is SUCCESS: the payment is applied and the order kept', async () => {
  p.sim.setFaults({ drop: true });
  const { orderNo, payParams } = await p.orderAndPrepay('openid-guard-paid', {
    sessionId: s.sessionId,
    seatIds: [s.seatIds[seat++]],
  });
  p.sim.pay(payParams);
  const [[row]] = await p.deps.db.query<RowDataPacket[]>('SELECT id FROM orders WHERE order_no = ?', [
    orderNo,
  ]);
  await expireNow(String(row!.id));
  expect(await p.deps.orders.expire(String(row!.id), p.clock.now())).toBe(false);
  expect(await statusOf(orderNo)).toBe(2);
});
