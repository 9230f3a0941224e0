import type { RowDataPacket } from 'mysql2/promise';
import type { SessionChangeView } from '@showtix/shared-types';
import type { Actor } from '../src/http/admin/http';
import { sessionChangesOf } from '../src/per-app';
import { resendStuckRefunds } from '../src/jobs/stuck-money';
import { SessionChangeService } from '../src/session-changes/service';
import { REFUND_STATUS } from '../src/lifecycle/statuses';
import { audit } from './helpers/auditor';
import { createSession, type SessionFixture } from './helpers/fixtures';
import { GateBench, type HeldTicket } from './helpers/gate';

/**
 * Cancelling a session (issue 16): sale stopped, every ticket refused at the gate, pending
 * orders cancelled, every paid order refunded in full through WeChat Pay by a resumable,
 * rate-limited run that is counted to the fen.
 */
const g = new GateBench();
const changes = () => sessionChangesOf(g.p.deps);
const who: Actor = { adminId: null as unknown as string, username: 'test-organiser', ip: '' };
// A fee on every refund the buyer asks for: the cancellation's refunds must not charge it.
const HALF_FEE = [
  { hoursBeforeStart: 48, feePercent: 50 },
  { hoursBeforeStart: 0, feePercent: 100 },
];

beforeAll(() => g.start());
afterAll(() => g.close());
afterEach(() => g.p.sim.resetFaults());

const rows = async (sql: string, params: unknown[]) =>
  (await g.p.deps.db.query<RowDataPacket[]>(sql, params))[0];
const sumFen = (ts: { orderNo: string }[], amounts: Map<string, number>) =>
  [...new Set(ts.map((t) => t.orderNo))].reduce((a, no) => a + amounts.get(no)!, 0);

async function amountsOf(sessionId: string): Promise<Map<string, number>> {
  const r = await rows('SELECT order_no, amount_fen FROM orders WHERE session_id = ?', [sessionId]);
  return new Map(r.map((x) => [String(x.order_no), x.amount_fen as number]));
}

/** The session's refunds at the simulator, per order number (each must be there exactly once). */
function simRefunds(orderNos: string[]) {
  return orderNos.map((no) => g.p.sim.refunds().filter((r) => r.out_trade_no === no).length);
}

/** Fen WeChat has refunded of one trade so far (successful refunds only). */
function refundedAtWechat(orderNo: string): number {
  return g.p.sim
    .refunds()
    .filter((r) => r.out_trade_no === orderNo && r.status === 'SUCCESS')
    .reduce((a, r) => a + (r.amount as { refund: number }).refund, 0);
}

async function progress(sessionId: string): Promise<SessionChangeView> {
  return (await changes().changes(sessionId)).items[0]!;
}

/** Runs passes (the job's) until the change is done, sending refused refunds again as recovery does. */
async function runToEnd(sessionId: string, svc = changes(), budget?: number) {
  return g.p.until(
    async () => {
      await svc.run(g.p.clock.now(), budget);
      await resendStuckRefunds(g.p.deps, new Date(g.p.clock.now().getTime() + 7 * 3_600_000), 0);
      await g.p.deps.refunds.checkProcessing(g.p.clock.now(), 0); // the refund-check job
      const v = await progress(sessionId);
      return v.state === 'done' && v;
    },
    'the cancellation run to finish',
    30_000,
  );
}

async function sessionWithOrders(
  paid: number,
  fee = HALF_FEE,
): Promise<{ s: SessionFixture; tickets: HeldTicket[] }> {
  const s = await createSession(g.p.deps, { seats: 20, refundRules: fee });
  const tickets: HeldTicket[] = [];
  for (let i = 0; i < paid; i++) tickets.push(...(await g.tickets(s, i === 0 ? 2 : 1)));
  return { s, tickets };
}

/**
 * One order of 2 tickets (50% fee on a buyer refund) whose buyer asked a refund WeChat refuses
 * for now (it stays in flight), then the session cancelled with the given reason.
 */
async function cancelWithBuyerRefundInFlight(reason: string) {
  const { s, tickets } = await sessionWithOrders(1);
  const t = tickets[0]!;
  g.p.sim.setFaults({ refundNotEnough: true });
  const asked = await g.p.api.call('POST', `/api/v1/orders/${t.orderNo}/refund`, {
    token: t.token,
    body: { reason: '去不了' },
  });
  expect(asked.status).toBe(200);
  expect(asked.body.refund.feeFen).toBeGreaterThan(0);
  await changes().cancel(who, s.sessionId, { reason }, g.p.clock.now());
  return { s, t, asked };
}

it('cancel: 3 paid orders refunded in full, 1 pending cancelled, the gate refuses at once, seats never sold again', async () => {
  const { s, tickets } = await sessionWithOrders(3);
  await g.assign(s.showId);
  const pending = await g.p.orderAndPrepay('openid-cancel-pending', {
    sessionId: s.sessionId,
    seatIds: [s.seatIds[10]],
  });
  const view = await changes().cancel(who, s.sessionId, { reason: '艺人身体原因' }, g.p.clock.now());
  expect(view).toMatchObject({ kind: 'cancel', state: 'running', reason: '艺人身体原因' });

  // At once, before any refund: the gate refuses every ticket, the sale is closed.
  const scan = await g.p.api.call('POST', '/api/v1/checkin', {
    token: g.staffToken,
    body: { qr: g.code(tickets[0]!), gate: 'A1', sessionId: s.sessionId },
  });
  expect(scan.body.result).toBe('refunded');
  const buy = await g.p
    .orderAndPrepay('openid-cancel-late', { sessionId: s.sessionId, seatIds: [s.seatIds[12]] })
    .catch((e: Error) => e.message);
  expect(buy).toMatch(/NOT_ON_SALE/);
  const detail = await g.p.api.call('GET', `/api/v1/sessions/${s.sessionId}`);
  expect(detail.body.status).toBe('cancelled');

  // Rate-limited: a pass of budget 1 asks for one refund only.
  expect(await changes().run(g.p.clock.now(), 1)).toBe(1);
  const first = await progress(s.sessionId);
  expect(first.orders).toMatchObject({ total: 3, waiting: 2 });
  expect(first.pendingLeft).toBe(0); // the pending order was cancelled in the same pass

  const done = await runToEnd(s.sessionId);
  const amounts = await amountsOf(s.sessionId);
  const orderNos = [...new Set(tickets.map((t) => t.orderNo))];
  expect(done.orders).toMatchObject({ total: 3, waiting: 0, inProgress: 0, refunded: 3, failed: 0 });
  expect(done.fenToRefund).toBe(sumFen(tickets, amounts));
  expect(done.fenRefunded).toBe(done.fenToRefund);
  expect(simRefunds(orderNos)).toEqual([1, 1, 1]);
  const refunds = await rows(
    'SELECT r.amount_fen, r.fee_fen, o.amount_fen AS paid FROM refunds r JOIN orders o ON o.id = r.order_id WHERE o.session_id = ?',
    [s.sessionId],
  );
  expect(refunds.every((r) => r.fee_fen === 0 && r.amount_fen === r.paid)).toBe(true);
  const statuses = await rows('SELECT order_no, status, cancel_reason FROM orders WHERE session_id = ?', [
    s.sessionId,
  ]);
  expect(statuses.find((o) => o.order_no === pending.orderNo)).toMatchObject({
    status: 4,
    cancel_reason: 'session_cancelled',
  });
  expect(statuses.filter((o) => o.status === 5)).toHaveLength(3);
  // Every fan was told once per order.
  const notices = await rows(
    "SELECT aggregate_id, payload FROM outbox WHERE topic = 'notice.send' AND aggregate_id LIKE ?",
    [`sc${done.id}-%`],
  );
  expect(notices).toHaveLength(3);
  expect(notices.every((n) => JSON.parse(n.payload).template === 'session_changed')).toBe(true);
  // Refunded seats are released in Redis, yet still not on sale.
  const again = await g.p
    .orderAndPrepay('openid-cancel-after', { sessionId: s.sessionId, seatIds: [s.seatIds[0]] })
    .catch((e: Error) => e.message);
  expect(again).toMatch(/NOT_ON_SALE/);
  // Redis gives the seats back through the outbox (inventory.release), after the refund's commit.
  const clean = async () => (await audit(g.p.deps, s.sessionId, g.p.clock.now().getTime())).length === 0;
  await g.p.until(clean, 'Redis released the refunded seats').catch(() => undefined);
  expect(await audit(g.p.deps, s.sessionId, g.p.clock.now().getTime())).toEqual([]);
  // Passes after the end change nothing.
  await changes().run(g.p.clock.now());
  expect(simRefunds(orderNos)).toEqual([1, 1, 1]);
});

it('WeChat refusing some refunds (NOT_ENOUGH, SYSTEM_ERROR): tracked, retried by the refund recovery, the run resumes to the last fen', async () => {
  const { s, tickets } = await sessionWithOrders(4);
  await changes().cancel(who, s.sessionId, { reason: '场馆检修' }, g.p.clock.now());
  g.p.sim.setFaults({ refundNotEnough: true });
  await changes().run(g.p.clock.now(), 2);
  await g.p.until(async () => {
    const r = await rows(
      'SELECT attempts FROM refunds r JOIN orders o ON o.id = r.order_id WHERE o.session_id = ?',
      [s.sessionId],
    );
    return r.length === 2 && r.every((x) => x.attempts > 0);
  }, 'refused refunds recorded');
  const mid = await progress(s.sessionId);
  expect(mid.state).toBe('running');
  expect(mid.orders).toMatchObject({ total: 4, waiting: 2, inProgress: 2, refunded: 0 });
  expect(mid.fenRefunded).toBe(0);
  expect(mid.problems).toHaveLength(2);
  expect(mid.problems[0]).toMatchObject({ state: 'retrying', error: expect.stringContaining('NOT_ENOUGH') });
  g.p.sim.setFaults({ refundNotEnough: false, failNextRequests: 1 });
  const done = await runToEnd(s.sessionId);
  const amounts = await amountsOf(s.sessionId);
  expect(done.orders).toMatchObject({ total: 4, refunded: 4, inProgress: 0, failed: 0 });
  expect(done.fenRefunded).toBe(sumFen(tickets, amounts));
  expect(done.fenToRefund).toBe(done.fenRefunded);
  const paid = await rows(
    'SELECT SUM(p.amount_fen) AS paid, SUM(p.refunded_fen) AS back FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.session_id = ?',
    [s.sessionId],
  );
  expect(Number(paid[0]!.back)).toBe(Number(paid[0]!.paid));
  expect(simRefunds([...new Set(tickets.map((t) => t.orderNo))])).toEqual([1, 1, 1, 1]);
});

it('a crash mid-run (refund asked, its row not yet marked) resumes after a restart without refunding twice', async () => {
  const { s, tickets } = await sessionWithOrders(3);
  await changes().cancel(who, s.sessionId, { reason: '不可抗力' }, g.p.clock.now());
  let calls = 0;
  // The instance dies right after the refunds service committed the second refund.
  const crashing = new SessionChangeService({
    db: g.p.deps.db,
    log: g.p.deps.log,
    relay: g.p.deps.relay,
    catalog: g.p.deps.catalog,
    inventory: g.p.deps.inventory,
    refundOrder: async (o) => {
      const r = await g.p.deps.refunds.refundOrder(o);
      if (++calls === 2) throw new Error('process killed');
      return r;
    },
    cancelPending: (id, now) => g.p.deps.orders.cancelForSession(id, now),
    voidComp: () => Promise.resolve(),
    refundsPerS: 10,
  });
  await expect(crashing.run(g.p.clock.now())).rejects.toThrow('process killed');
  const marked = await rows(
    'SELECT x.state FROM session_change_orders x JOIN session_changes c ON c.id = x.change_id WHERE c.session_id = ? ORDER BY x.order_id',
    [s.sessionId],
  );
  expect(marked.map((m) => m.state)).toEqual(['requested', 'todo', 'todo']); // the second's refund exists
  const done = await runToEnd(s.sessionId); // "after the restart": the app's own service
  expect(done.orders).toMatchObject({ total: 3, refunded: 3 });
  expect(simRefunds([...new Set(tickets.map((t) => t.orderNo))])).toEqual([1, 1, 1]);
  const perOrder = await rows(
    'SELECT COUNT(*) AS n FROM refunds r JOIN orders o ON o.id = r.order_id WHERE o.session_id = ? GROUP BY r.order_id',
    [s.sessionId],
  );
  expect(perOrder.map((r) => Number(r.n))).toEqual([1, 1, 1]);
  expect(done.fenRefunded).toBe(sumFen(tickets, await amountsOf(s.sessionId)));
});

it('postpone: the date moves, every fan is told once, a refund in the window is free, after it the tier fee applies', async () => {
  const { s, tickets } = await sessionWithOrders(2);
  const before = await g.p.api.call('GET', `/api/v1/sessions/${s.sessionId}`);
  const now = g.p.clock.now().getTime();
  const startsAt = new Date(now + 60 * 86_400_000).toISOString();
  const refundUntil = new Date(now + 10 * 86_400_000).toISOString();
  const v = await changes().postpone(
    who,
    s.sessionId,
    { startsAt, refundUntil, reason: '场馆调整' },
    g.p.clock.now(),
  );
  expect(v).toMatchObject({
    kind: 'postpone',
    newStartsAt: startsAt,
    refundUntil,
    oldStartsAt: before.body.startsAt,
  });
  const after = await g.p.api.call('GET', `/api/v1/sessions/${s.sessionId}`);
  expect(after.body).toMatchObject({
    startsAt,
    postponedFrom: before.body.startsAt,
    fullRefundUntil: refundUntil,
  });
  await changes().run(g.p.clock.now());
  await changes().run(g.p.clock.now()); // twice: nobody told twice
  expect((await progress(s.sessionId)).state).toBe('done');
  const told = await rows(
    "SELECT aggregate_id FROM outbox WHERE topic = 'notice.send' AND aggregate_id LIKE ?",
    [`sc${v.id}-%`],
  );
  expect(told).toHaveLength(2);

  const [a, b] = [tickets[0]!, tickets[2]!];
  const refund = (t: HeldTicket) =>
    g.p.api.call('POST', `/api/v1/orders/${t.orderNo}/refund`, {
      token: t.token,
      body: { reason: '延期去不了' },
    });
  const free = await refund(a);
  expect(free.status).toBe(200);
  expect(free.body.refund).toMatchObject({ feeFen: 0, amountFen: free.body.amountFen });
  g.p.clock.advance(11 * 86_400_000); // the window closed; 49 days before the new date: 50%
  try {
    const charged = await refund(b);
    expect(charged.status).toBe(200);
    const fee = Math.floor(charged.body.amountFen * 0.5);
    expect(charged.body.refund).toMatchObject({ feeFen: fee, amountFen: charged.body.amountFen - fee });
  } finally {
    g.p.clock.set(now);
  }
});

it('a pending order the fan paid just as the session was cancelled: the payment is honoured, then refunded in full', async () => {
  const { s } = await sessionWithOrders(1);
  const late = await g.p.orderAndPrepay('openid-cancel-paying', {
    sessionId: s.sessionId,
    seatIds: [s.seatIds[8]],
  });
  g.p.sim.setFaults({ drop: true }); // WeChat took the money; its notification has not arrived
  g.p.sim.pay(late.payParams);
  await changes().cancel(who, s.sessionId, { reason: '天气原因' }, g.p.clock.now());
  const done = await runToEnd(s.sessionId);
  const order = (
    await rows('SELECT status, cancel_reason FROM orders WHERE order_no = ?', [late.orderNo])
  )[0]!;
  expect(order.status).toBe(5); // paid (the cancel guard asked WeChat), then refunded
  expect(done.orders).toMatchObject({ total: 2, refunded: 2 });
  expect(done.pendingLeft).toBe(0);
  expect(simRefunds([late.orderNo])).toEqual([1]);
  expect(done.fenRefunded).toBe(done.fenToRefund);
});

it('exchanged tickets (改签, up and down): every payment back in full by its own refunds, no operator', async () => {
  // 4 VIP seats (1,880 yuan), then 680-yuan seats; exchanges allowed.
  const s = await createSession(g.p.deps, { seats: 20, vip: 4, refundRules: HALF_FEE });
  await g.p.deps.db.query('UPDATE shows SET exchange_allowed = 1 WHERE id = ?', [s.showId]);
  const ticketed = async (openid: string, seatId: string) => {
    const { fan, orderNo, payParams } = await g.p.orderAndPrepay(openid, {
      sessionId: s.sessionId,
      seatIds: [seatId],
    });
    g.p.sim.pay(payParams);
    const [t] = await g.p.until(async () => {
      const r = await g.p.api.call('GET', '/api/v1/tickets', { token: fan.token });
      const mine = r.body.items.filter((x: { orderNo: string }) => x.orderNo === orderNo);
      return mine.length === 1 && mine;
    }, 'tickets');
    return { fan, orderNo, ticketId: t.ticketId as string };
  };
  const exchange = (o: Awaited<ReturnType<typeof ticketed>>, seatId: string) =>
    g.p.api.call('POST', `/api/v1/orders/${o.orderNo}/exchange`, {
      token: o.fan.token,
      body: { ticketIds: [o.ticketId], sessionId: s.sessionId, seatIds: [seatId] },
    });
  // Down: VIP to a stand seat, the difference refunded on the original payment at once.
  const down = await ticketed('openid-cancel-x-down', s.seatIds[0]!);
  const d = await exchange(down, s.seatIds[10]!);
  expect(d.body).toMatchObject({ status: 'done', diffFen: 68_000 - 188_000 });
  // Up: a stand seat to VIP, the difference paid through WeChat Pay.
  const up = await ticketed('openid-cancel-x-up', s.seatIds[11]!);
  const u = await exchange(up, s.seatIds[1]!);
  expect(u.body).toMatchObject({ status: 'pending', diffFen: 188_000 - 68_000 });
  const pay = await g.p.api.call('POST', `/api/v1/orders/${u.body.orderNo}/pay`, { token: up.fan.token });
  g.p.sim.pay(pay.body.payParams);
  await g.p.until(async () => {
    const l = await g.p.api.call('GET', `/api/v1/orders/${up.orderNo}/exchanges`, { token: up.fan.token });
    return l.body.items[0]?.status === 'done';
  }, 'the upward exchange done');
  const downRefund = async () =>
    (
      await rows(
        "SELECT status FROM refunds WHERE kind = 'exchange' AND order_id = (SELECT id FROM orders WHERE order_no = ?)",
        [down.orderNo],
      )
    )[0]?.status;
  await g.p.until(async () => (await downRefund()) === 2, 'the downward difference refunded');

  await changes().cancel(who, s.sessionId, { reason: '场次取消（改签）' }, g.p.clock.now());
  const done = await runToEnd(s.sessionId);
  expect(done.orders).toMatchObject({ total: 4, failed: 0 });
  expect(done.problems).toEqual([]);
  await g.p.until(async () => {
    const open = await rows(
      'SELECT COUNT(*) n FROM refunds r JOIN orders o ON o.id = r.order_id WHERE o.session_id = ? AND r.status <> 2',
      [s.sessionId],
    );
    await g.p.deps.refunds.checkProcessing(g.p.clock.now(), 0);
    return Number(open[0]!.n) === 0;
  }, 'every refund succeeded');
  // Every fen WeChat took for the session back, fee-free, and nothing with an operator.
  const money = await rows(
    'SELECT p.amount_fen, p.refunded_fen FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.session_id = ?',
    [s.sessionId],
  );
  expect(money).toHaveLength(3);
  expect(money.every((m) => m.refunded_fen === m.amount_fen)).toBe(true);
  const fees = await rows(
    'SELECT COALESCE(SUM(r.fee_fen), 0) fee FROM refunds r JOIN orders o ON o.id = r.order_id WHERE o.session_id = ?',
    [s.sessionId],
  );
  expect(Number(fees[0]!.fee)).toBe(0);
  const cases = await rows(
    'SELECT rc.refund_id FROM refund_cases rc JOIN refunds r ON r.id = rc.refund_id JOIN payments p ON p.id = r.payment_id JOIN orders o ON o.id = p.order_id WHERE o.session_id = ?',
    [s.sessionId],
  );
  expect(cases).toEqual([]);
  // The organiser's view counts it to the fen: each exchange order's whole value, the fully
  // exchanged originals none, every fen of it refunded.
  const view = await progress(s.sessionId);
  const taken = money.reduce((a, m) => a + m.amount_fen, 0) - (188_000 - 68_000); // less the down difference
  expect(view.fenToRefund).toBe(taken);
  expect(view.fenRefunded).toBe(view.fenToRefund);
  // WeChat refunded each trade exactly what it took, per trade (the original's, the difference's).
  for (const o of g.p.sim
    .orders()
    .filter((x) => [down.orderNo, up.orderNo, u.body.orderNo].includes(x.out_trade_no))) {
    expect(refundedAtWechat(String(o.out_trade_no))).toBe((o.amount as { total: number }).total);
  }
  // The exchange orders are refunded, their tickets void; no ticket of the session admissible.
  const orders = await rows('SELECT order_no, status FROM orders WHERE order_no IN (?)', [
    [d.body.orderNo, u.body.orderNo],
  ]);
  expect(orders.map((o) => o.status)).toEqual([5, 5]);
  const live = await rows('SELECT COUNT(*) n FROM tickets WHERE session_id = ? AND status IN (1, 3, 5)', [
    s.sessionId,
  ]);
  expect(Number(live[0]!.n)).toBe(0);
  const clean = async () => (await audit(g.p.deps, s.sessionId, g.p.clock.now().getTime())).length === 0;
  await g.p.until(clean, 'Redis released the seats').catch(() => undefined);
  expect(await audit(g.p.deps, s.sessionId, g.p.clock.now().getTime())).toEqual([]);
});

it('a buyer refund with a fee still in flight at the cancel: its fee comes back too, the payment in full', async () => {
  const { s, t } = await cancelWithBuyerRefundInFlight('场次取消（手续费）');
  g.p.sim.setFaults({ refundNotEnough: false });
  await runToEnd(s.sessionId);
  const paid = (await amountsOf(s.sessionId)).get(t.orderNo)!;
  const back = () => refundedAtWechat(t.orderNo);
  const payment = async () =>
    (
      await rows(
        'SELECT p.amount_fen, p.refunded_fen FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.order_no = ?',
        [t.orderNo],
      )
    )[0]!;
  // WeChat's refund notices reach MySQL after WeChat answers: wait for both records, not one.
  await g.p
    .until(async () => {
      await resendStuckRefunds(g.p.deps, new Date(g.p.clock.now().getTime() + 7 * 3_600_000), 0);
      await g.p.deps.refunds.checkProcessing(g.p.clock.now(), 0);
      await changes().run(g.p.clock.now());
      const p = await payment();
      return back() === paid && p.refunded_fen === p.amount_fen;
    }, 'the whole payment back')
    .catch(() => undefined);
  expect(back()).toBe(paid);
  const pay = await payment();
  expect(pay.refunded_fen).toBe(pay.amount_fen);
});

it('a buyer refund in flight at the cancel that WeChat then closes: no fee goes back first, and the payment waits for an operator', async () => {
  const { s, t, asked } = await cancelWithBuyerRefundInFlight('场次取消（退款被关闭）');
  await changes().run(g.p.clock.now());
  // WeChat closes the buyer's refund: its tickets are good again, and the cancellation takes them.
  g.p.sim.setFaults({ refundNotEnough: false, refundOutcome: 'CLOSED' });
  await resendStuckRefunds(g.p.deps, new Date(g.p.clock.now().getTime() + 7 * 3_600_000), 0);
  await g.p
    .until(
      async () =>
        (await rows('SELECT status FROM refunds WHERE id = ?', [asked.body.refund.refundId ?? 0]))[0]
          ?.status !== 0,
      'buyer refund answered',
    )
    .catch(() => undefined);
  g.p.sim.resetFaults();
  const paid = (await amountsOf(s.sessionId)).get(t.orderNo)!;
  const back = () => refundedAtWechat(t.orderNo);
  for (let i = 0; i < 5; i++) {
    await g.p.deps.refunds.checkProcessing(g.p.clock.now(), 0);
    await changes().run(g.p.clock.now());
  }
  // The closed refund is with an operator, who refunds the whole payment: nothing went out
  // before. Before: the fee went back while the buyer's refund was in flight, so the operator's
  // full refund would exceed the payment (REFUND_EXCEEDS_PAID) and the fan could not be made whole.
  expect(back()).toBe(0);
  expect(paid).toBeGreaterThan(0);
  const [c] = await rows(
    `SELECT c.reason FROM refund_cases c JOIN refunds r ON r.id = c.refund_id JOIN orders o ON o.id = r.order_id
      WHERE o.order_no = ?`,
    [t.orderNo],
  );
  expect(c).toBeDefined();
});

it('a buyer refund that succeeds between a pass asking the fees and closing the cancellation still gets its fee back', async () => {
  const { s, t } = await cancelWithBuyerRefundInFlight('场次取消（手续费竞态）');
  g.p.sim.setFaults({ refundNotEnough: false });
  const buyerRefundDone = async () =>
    (
      await rows(
        `SELECT r.status FROM refunds r JOIN orders o ON o.id = r.order_id
          WHERE o.order_no = ? AND r.kind = 'order'`,
        [t.orderNo],
      )
    )[0]!.status === REFUND_STATUS.SUCCESS;
  // The race, made certain: the pass reads the fees due (none: the buyer's refund is in flight),
  // then the refund succeeds (WeChat answers a resend), then the same pass decides whether the
  // cancellation is done. With only refunds in flight counted, it closed with the fee kept.
  let raced = false;
  const db = new Proxy(g.p.deps.db, {
    get(target, prop) {
      const real = Reflect.get(target, prop) as unknown;
      if (prop !== 'query' || typeof real !== 'function')
        return typeof real === 'function' ? real.bind(target) : real;
      return async (...args: unknown[]) => {
        const result = await (real as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (
          !raced &&
          String(args[0]).includes('ORDER BY r.id LIMIT') &&
          String(args[0]).includes("kind = 'fee'")
        ) {
          raced = true;
          await g.p.until(async () => {
            await resendStuckRefunds(g.p.deps, new Date(g.p.clock.now().getTime() + 7 * 3_600_000), 0);
            await g.p.deps.refunds.checkProcessing(g.p.clock.now(), 0);
            return buyerRefundDone();
          }, 'the buyer refund done mid-pass');
        }
        return result;
      };
    },
  });
  await sessionChangesOf({ ...g.p.deps, db }).run(g.p.clock.now());
  expect(raced).toBe(true);
  expect((await progress(s.sessionId)).state).toBe('running'); // a fee is still owed
  const paid = (await amountsOf(s.sessionId)).get(t.orderNo)!;
  await runToEnd(s.sessionId);
  await g.p
    .until(async () => {
      await g.p.deps.refunds.checkProcessing(g.p.clock.now(), 0);
      return refundedAtWechat(t.orderNo) === paid;
    }, 'the whole payment back')
    .catch(() => undefined);
  expect(refundedAtWechat(t.orderNo)).toBe(paid);
});
