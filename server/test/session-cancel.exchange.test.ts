import type { RowDataPacket } from 'mysql2/promise';
import type { Actor } from '../src/http/admin/http';
import { sessionChangesOf } from '../src/per-app';
import { resendStuckRefunds } from '../src/jobs/stuck-money';
import { exchangeTicket, payExchange, ticketedOrder, type TicketedOrder } from './helpers/exchange';
import { createSession, type SessionFixture } from './helpers/fixtures';
import { GateBench, newDevice } from './helpers/gate';

/**
 * Exchanged tickets (改签) meet an operator or a cancelled session (issue 16): the value of an
 * exchange order's tickets is held by its own payment and its original's, so whoever refunds it
 * (an operator's refund, a cancellation's hand-over) must see and move every share.
 */
const g = new GateBench();
const changes = () => sessionChangesOf(g.p.deps);
const who: Actor = { adminId: null as unknown as string, username: 'test-organiser', ip: '' };
const STAND = 68_000;
const VIP = 188_000;

beforeAll(() => g.start());
afterAll(() => g.close());

const rows = async (sql: string, params: unknown[]) =>
  (await g.p.deps.db.query<RowDataPacket[]>(sql, params))[0];

/** A session of 4 VIP and 16 stand seats whose show allows exchanges; the gate's staff assigned. */
async function exchangeSession(): Promise<SessionFixture> {
  const s = await createSession(g.p.deps, { seats: 20, vip: 4 });
  await g.p.deps.db.query('UPDATE shows SET exchange_allowed = 1 WHERE id = ?', [s.showId]);
  await g.assign(s.showId);
  return s;
}

/** Two stand seats bought in one order, the first exchanged up to a VIP seat and paid. */
async function upgradedOne(s: SessionFixture, openid: string, from: number, to: number) {
  const o = await ticketedOrder(g.p, openid, s.sessionId, [s.seatIds[from]!, s.seatIds[from + 1]!]);
  const x = await exchangeTicket(g.p, o, o.ticketIds[0]!, s.sessionId, s.seatIds[to]!);
  expect(x.body).toMatchObject({ status: 'pending', diffFen: VIP - STAND });
  await payExchange(g.p, o, x.body.orderNo);
  return { o, exchangeNo: x.body.orderNo as string };
}

/** The exchange order's new ticket is bound to a phone and admitted at the gate. */
async function admitNewTicket(s: SessionFixture, o: TicketedOrder, exchangeNo: string): Promise<void> {
  const mine = await g.p.api.call('GET', '/api/v1/tickets', { token: o.fan.token });
  const t = mine.body.items.find((x: { orderNo: string }) => x.orderNo === exchangeNo);
  const device = newDevice();
  const b = await g.bind(o.fan.token, t.ticketId, device);
  const held = { ...t, binding: b.body.binding, bindingId: b.body.bindingId, device, token: o.fan.token };
  expect((await g.scan(g.code(held), 'A1', { sessionId: s.sessionId })).body.result).toBe('admitted');
}

/** What WeChat refunded of each trade (out_trade_no = order number). */
const backOf = (orderNo: string) =>
  g.p.sim
    .refunds()
    .filter((r) => r.out_trade_no === orderNo && r.status === 'SUCCESS')
    .reduce((a, r) => a + (r.amount as { refund: number }).refund, 0);

async function refundsSettled(sessionId: string): Promise<void> {
  await g.p.until(async () => {
    await resendStuckRefunds(g.p.deps, new Date(g.p.clock.now().getTime() + 7 * 3_600_000), 0);
    await g.p.deps.refunds.checkProcessing(g.p.clock.now(), 0);
    const [open] = await rows(
      'SELECT COUNT(*) n FROM refunds r JOIN orders o ON o.id = r.order_id WHERE o.session_id = ? AND r.status < 2',
      [sessionId],
    );
    return Number(open!.n) === 0;
  }, 'every refund answered');
}

it('cancel with an exchanged ticket already admitted: one hand-over names the whole value and each payment share; the original refunds only its own ticket', async () => {
  const s = await exchangeSession();
  const { o, exchangeNo } = await upgradedOne(s, 'openid-scx-admitted', 10, 0);
  await admitNewTicket(s, o, exchangeNo);

  await changes().cancel(who, s.sessionId, { reason: '场次取消（已入场改签票）' }, g.p.clock.now());
  await g.p.until(async () => {
    await changes().run(g.p.clock.now());
    return (await changes().changes(s.sessionId)).items[0]!.state === 'done';
  }, 'the cancellation run to finish');
  await refundsSettled(s.sessionId);
  const view = (await changes().changes(s.sessionId)).items[0]!;

  // The original's own (not exchanged) ticket is refunded, and only it: its row says 680 yuan,
  // not the order's 1,360 (before: the whole order's amount, though half went with the exchange).
  const byNo = new Map(
    (
      await rows(
        `SELECT o.order_no, x.state, x.amount_fen, x.error FROM session_change_orders x
           JOIN orders o ON o.id = x.order_id WHERE x.change_id = ?`,
        [view.id],
      )
    ).map((r) => [String(r.order_no), r]),
  );
  expect(byNo.get(o.orderNo)).toMatchObject({ state: 'requested', amount_fen: STAND });
  expect(backOf(o.orderNo)).toBe(STAND);
  // The exchange order goes to an operator with the ticket's whole value, 1,880 yuan: its own
  // 1,200 and the original's 680 (before: 1,200 only, and the original's 680 lost from view).
  const handOver = byNo.get(exchangeNo)!;
  expect(handOver).toMatchObject({ state: 'failed', amount_fen: VIP });
  expect(handOver.error).toContain('已检票入场');
  expect(handOver.error).toContain(`订单 ${exchangeNo} ${((VIP - STAND) / 100).toFixed(2)} 元`);
  expect(handOver.error).toContain(`订单 ${o.orderNo} ${(STAND / 100).toFixed(2)} 元`);
  expect(backOf(exchangeNo)).toBe(0);
  expect(view.problems).toEqual([
    expect.objectContaining({ orderNo: exchangeNo, amountFen: VIP, state: 'failed' }),
  ]);
  // Counted to the fen: to refund = the original's own ticket + the hand-over; refunded = the first.
  expect(view.fenToRefund).toBe(STAND + VIP);
  expect(view.fenRefunded).toBe(STAND);
});

it("an operator's refund of an exchange order gives each payment its share back (before: REFUND_EXCEEDS_PAID)", async () => {
  const s = await exchangeSession();
  const { o, exchangeNo } = await upgradedOne(s, 'openid-scx-operator', 12, 1);
  const [ex] = await rows('SELECT id FROM orders WHERE order_no = ?', [exchangeNo]);
  // The fan still cannot refund an exchange order's tickets (told before exchanging).
  const fan = await g.p.api.call('POST', `/api/v1/orders/${exchangeNo}/refund`, {
    token: o.fan.token,
    body: { reason: '不去了' },
  });
  expect(fan.body).toMatchObject({ error: { code: 'REFUND_NOT_ALLOWED' } });
  const refund = await g.p.deps.refunds.refundOrder({
    orderId: String(ex!.id),
    by: { kind: 'admin', id: '1' },
    reason: '运营退款（改签订单）',
    now: g.p.clock.now(),
  });
  expect(refund.amountFen).toBeGreaterThan(0);
  await refundsSettled(s.sessionId);
  // The difference back on its own trade, the old seat's price on the original's.
  expect(backOf(exchangeNo)).toBe(VIP - STAND);
  expect(backOf(o.orderNo)).toBe(STAND);
  const [st] = await rows('SELECT status FROM orders WHERE order_no = ?', [exchangeNo]);
  expect(st!.status).toBe(5);
  const live = await rows(
    `SELECT t.status FROM tickets t JOIN orders o ON o.id = t.order_id WHERE o.order_no = ?`,
    [exchangeNo],
  );
  expect(live.map((t) => t.status)).toEqual([2]); // voided
  // Asked again: the same refund answered, nothing refunded twice.
  const again = await g.p.deps.refunds.refundOrder({
    orderId: String(ex!.id),
    by: { kind: 'admin', id: '1' },
    now: g.p.clock.now(),
  });
  expect(again.id).toBe(refund.id);
  expect(
    g.p.sim.refunds().filter((r) => [exchangeNo, o.orderNo].includes(r.out_trade_no as string)),
  ).toHaveLength(2);
});

it("WeChat closing an operator's refund of an exchange order: its tickets stay held and an operator is told (before: valid again beside the other shares' money)", async () => {
  const s = await exchangeSession();
  const { exchangeNo } = await upgradedOne(s, 'openid-scx-closed', 14, 2);
  const [ex] = await rows('SELECT id FROM orders WHERE order_no = ?', [exchangeNo]);
  g.p.sim.setFaults({ refundOutcome: 'CLOSED' });
  try {
    await g.p.deps.refunds.refundOrder({
      orderId: String(ex!.id),
      by: { kind: 'admin', id: '1' },
      reason: '运营退款（改签订单）',
      now: g.p.clock.now(),
    });
    await refundsSettled(s.sessionId);
  } finally {
    g.p.sim.resetFaults();
  }
  const tickets = await rows(
    'SELECT t.status FROM tickets t JOIN orders o ON o.id = t.order_id WHERE o.order_no = ?',
    [exchangeNo],
  );
  expect(tickets.map((t) => t.status)).toEqual([3]); // REFUNDING: not admissible
  const cases = await rows(
    `SELECT r.kind FROM refund_cases c JOIN refunds r ON r.id = c.refund_id JOIN orders o ON o.id = r.order_id
      WHERE o.order_no = ? ORDER BY r.id`,
    [exchangeNo],
  );
  expect(cases.map((c) => c.kind)).toEqual(['order', 'exchange']);
});
