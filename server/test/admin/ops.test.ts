import type { RowDataPacket } from 'mysql2/promise';
import type { SessionFixture } from '../helpers/fixtures';
import { payEnvWithSession, type PayEnv } from '../helpers/pay-env';
import { ADMIN_ENV, loginAdmin } from './helpers';
import { abnormalRefund } from '../helpers/refund-steps';

/** The operations section of the admin API: recovery's leftovers, each with an audited repair. */
let p: PayEnv;
let s: SessionFixture;
let admin: string;
let seat = 0;

beforeAll(async () => {
  ({ p, s } = await payEnvWithSession(10, { consumers: false, env: ADMIN_ENV }));
  admin = await loginAdmin(p.api);
});
afterAll(() => p.close());
afterEach(() => p.sim.resetFaults());

const ops = (method: string, path = '', body?: unknown) =>
  p.api.call(method, `/api/v1/admin/ops${path}`, { token: admin, body });
const one = async (sql: string, params: unknown[]) =>
  (await p.deps.db.query<RowDataPacket[]>(sql, params))[0][0]!;
const audited = async (action: string) =>
  Number((await one('SELECT COUNT(*) n FROM admin_audit_log WHERE action = ?', [action])).n);

async function paidOrder(openid: string) {
  const { orderNo, payParams } = await p.orderAndPrepay(openid, {
    sessionId: s.sessionId,
    seatIds: [s.seatIds[seat++]],
  });
  p.sim.pay(payParams);
  await p.until(
    async () => (await one('SELECT status FROM orders WHERE order_no = ?', [orderNo])).status === 2,
    'paid',
  );
  const id = String((await one('SELECT id FROM orders WHERE order_no = ?', [orderNo])).id);
  return { orderNo, id };
}

it('operators only', async () => {
  const fan = await p.login('openid-ops-fan');
  expect((await p.api.call('GET', '/api/v1/admin/ops', { token: fan.token })).status).toBe(403);
  expect((await p.api.call('GET', '/api/v1/admin/ops')).status).toBe(401);
});

it('shows a paid order without tickets and issues them on request (audited)', async () => {
  const o = await paidOrder('openid-ops-paid');
  await p.deps.db.query('UPDATE orders SET paid_at = ? WHERE id = ?', [
    new Date(p.clock.now().getTime() - 600_000),
    o.id,
  ]);
  expect((await ops('GET')).body.stuckPayments).toEqual([expect.objectContaining({ orderNo: o.orderNo })]);
  const r = await ops('POST', `/orders/${o.orderNo}/issue-tickets`);
  expect(r.body).toEqual({ orderNo: o.orderNo, result: 'issued' });
  expect((await ops('GET')).body.stuckPayments).toEqual([]);
  expect(await audited('ops.order.issue_tickets')).toBe(1);
});

it('shows an ABNORMAL refund handed to an operator, who records the decision (audited)', async () => {
  const o = await paidOrder('openid-ops-abnormal');
  const refund = await abnormalRefund(p, o.id);
  await p.deps.db.query('UPDATE refunds SET created_at = ? WHERE id = ?', [
    new Date(p.clock.now().getTime() - 600_000),
    refund.id,
  ]);
  const view = (await ops('GET')).body;
  expect(view.refundCases).toEqual([
    expect.objectContaining({ refundId: refund.id, reason: 'abnormal', refundStatus: 'abnormal' }),
  ]);
  expect(view.stuckRefunds).toEqual([expect.objectContaining({ refundId: refund.id, status: 'abnormal' })]);
  expect((await ops('POST', `/refunds/${refund.id}/retry`)).body.status).toBe('abnormal'); // WeChat still says so
  expect((await ops('POST', `/refund-cases/${refund.id}/resolve`, { resolution: 'refund' })).status).toBe(
    400,
  );
  const done = await ops('POST', `/refund-cases/${refund.id}/resolve`, {
    resolution: 'paid_offline',
    note: '已线下转账',
  });
  expect(done.body).toEqual({ refundId: refund.id, state: 'resolved', resolution: 'paid_offline' });
  expect(
    (await ops('POST', `/refund-cases/${refund.id}/resolve`, { resolution: 'paid_offline', note: 'x' }))
      .status,
  ).toBe(404);
  expect((await ops('GET')).body.refundCases).toEqual([]);
  expect(await audited('ops.refund_case.resolve')).toBe(1);
  expect(await audited('ops.refund.retry')).toBe(1);
});

it('lists parked dead letters with RabbitMQ queue depths; discard and requeue settle one once (audited)', async () => {
  await p.deps.db.query(
    "INSERT INTO dead_letters (queue, message_id, payload, error, redrives) VALUES ('notices', 'outbox-1', '{}', 'boom', 3), ('notices', 'outbox-2', '{}', 'boom', 3)",
  );
  const view = (await ops('GET')).body.deadLetters;
  expect(view.queues).toMatchObject({ tickets: 0, refunds: 0 });
  expect(view.parked.map((m: { messageId: string }) => m.messageId)).toEqual(['outbox-1', 'outbox-2']);
  const [a, b] = view.parked as { id: string }[];
  expect((await ops('POST', `/dead-letters/${a!.id}/discard`)).body.state).toBe('discarded');
  expect((await ops('POST', `/dead-letters/${a!.id}/discard`)).status).toBe(409);
  expect((await ops('POST', `/dead-letters/${b!.id}/requeue`)).body.state).toBe('requeued');
  expect((await ops('GET')).body.deadLetters.parked).toEqual([]);
  expect(await audited('ops.dead_letter.discard')).toBe(1);
  expect(await audited('ops.dead_letter.requeue')).toBe(1);
});

it('lists money taken in another currency until its automatic refund succeeds; the repair sends it now (audited)', async () => {
  const { orderNo, payParams } = await p.orderAndPrepay('openid-ops-usd', {
    sessionId: s.sessionId,
    seatIds: [s.seatIds[seat++]],
  });
  p.sim.setFaults({ drop: true });
  p.sim.pay(payParams);
  p.sim.resetFaults();
  const total = Number((await one('SELECT amount_fen FROM orders WHERE order_no = ?', [orderNo])).amount_fen);
  const amount = { total, payer_total: total, currency: 'USD', payer_currency: 'USD' };
  const notify = await p.sim.sendRawNotification({
    outTradeNo: orderNo,
    url: `${p.api.url}/api/v1/pay/wechat/notify`,
    resource: { amount },
  });
  expect(notify.status).toBe(204);
  const payment = await one(
    "SELECT p.id FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.order_no = ? AND p.outcome = 'wrong_currency'",
    [orderNo],
  );
  // Consumers are off: the refund waits, asked but not sent.
  expect((await ops('GET')).body.foreignCurrency).toEqual([
    expect.objectContaining({
      paymentId: String(payment.id),
      orderNo,
      amountFen: total,
      currency: 'USD',
      refundedFen: 0,
      refundStatus: 'requested',
    }),
  ]);
  const r = await ops('POST', `/payments/${payment.id}/refund`);
  expect(r.body).toMatchObject({ paymentId: String(payment.id) });
  // Sent: WeChat's success notice may already have landed by the time the answer reads it back.
  expect(['processing', 'succeeded']).toContain(r.body.refundStatus);
  await p.until(
    async () => (await ops('GET')).body.foreignCurrency.length === 0,
    'the refund succeeded and the payment left the list',
  );
  expect(await one('SELECT refunded_fen, status FROM payments WHERE id = ?', [payment.id])).toEqual({
    refunded_fen: total,
    status: 3,
  });
  expect((await ops('POST', `/payments/${payment.id}/refund`)).status).toBe(404); // nothing left to refund
  expect(await audited('ops.payment.refund')).toBe(1);
});

it('a foreign-currency payment recorded without a refund (before refunds were automatic) gets one from the repair', async () => {
  const o = await paidOrder('openid-ops-usd-old');
  // The order's own CNY payment stays; a second transaction in USD was only recorded.
  await p.deps.db.query(
    `INSERT INTO payments (order_id, transaction_id, amount_fen, currency, success_time, outcome)
     SELECT id, 'legacy-usd-1', amount_fen, 'USD', ?, 'wrong_currency' FROM orders WHERE id = ?`,
    [p.clock.now(), o.id],
  );
  const listed = (await ops('GET')).body.foreignCurrency;
  expect(listed).toEqual([
    expect.objectContaining({ transactionId: 'legacy-usd-1', refundId: null, refundStatus: null }),
  ]);
  const r = await ops('POST', `/payments/${listed[0].paymentId}/refund`);
  expect(r.body.refundId).toEqual(expect.any(String));
  const refund = await one('SELECT kind, amount_fen, status FROM refunds WHERE id = ?', [r.body.refundId]);
  expect(refund.kind).toBe('currency');
  // The simulator knows no such transaction: WeChat refuses, the refund stays listed with its error.
  expect((await ops('GET')).body.foreignCurrency).toEqual([
    expect.objectContaining({ refundId: r.body.refundId, refundStatus: 'requested' }),
  ]);
});
