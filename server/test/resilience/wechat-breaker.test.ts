import type { RowDataPacket } from 'mysql2/promise';
import { resendStuckRefunds } from '../../src/jobs/stuck-money';
import { issueTickets } from '../../src/tickets/service';
import { WechatBusyError } from '../../src/wechat/breaker';
import type { SessionFixture } from '../helpers/fixtures';
import { payEnvWithSession, type PayEnv } from '../helpers/pay-env';
import { adminRefund, refundNosAtWechat } from '../helpers/refund-steps';

/**
 * The circuit breaker around WeChat Pay, against the simulator's fault switches: a failing or
 * slow WeChat is refused fast with WECHAT_BUSY (the fan is told so and when to retry), and the
 * money paths stay correct: a refund the breaker refused stays requested and is sent again.
 */
const RESET_MS = 600;
let p: PayEnv;
let s: SessionFixture;
let seat = 0;

beforeAll(async () => {
  ({ p, s } = await payEnvWithSession(20, {
    consumers: false,
    env: {
      WECHAT_BREAKER_ERROR_PCT: '50',
      WECHAT_BREAKER_MIN_CALLS: '2',
      WECHAT_BREAKER_RESET_MS: String(RESET_MS),
      WECHAT_TIMEOUT_MS: '1500',
    },
  }));
});
afterAll(() => p.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const one = async (sql: string, params: unknown[]) =>
  (await p.deps.db.query<RowDataPacket[]>(sql, params))[0][0]!;

/** Lets the open breaker half-open and closes it with a call WeChat answers. */
async function healBreaker(): Promise<void> {
  p.sim.resetFaults();
  await sleep(RESET_MS + 100);
  expect(await p.deps.pay.query('NO-SUCH-ORDER')).toBeUndefined();
  expect(p.deps.wechatBreaker!.state).toBe('closed');
}

async function pendingOrder(openid: string) {
  const fan = await p.login(openid);
  const seatIds = s.seatIds.slice(seat, (seat += 1));
  const order = await p.api.call('POST', '/api/v1/orders', {
    token: fan.token,
    body: { sessionId: s.sessionId, seatIds },
  });
  expect(order.status).toBe(201);
  return { fan, orderNo: order.body.orderNo as string };
}

const payCall = (o: { fan: { token: string }; orderNo: string }) =>
  p.api.call('POST', `/api/v1/orders/${o.orderNo}/pay`, { token: o.fan.token });

it('opens after WeChat fails: the next prepay is refused at once with WECHAT_BUSY, nothing sent', async () => {
  const o = await pendingOrder('openid-breaker-1');
  p.sim.setFaults({ failNextRequests: 10 });
  for (let i = 0; i < 2; i++) {
    const r = await payCall(o);
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe('SERVICE_UNAVAILABLE'); // WeChat answered SYSTEM_ERROR
  }
  expect(p.deps.wechatBreaker!.state).toBe('open');
  const t0 = Date.now();
  const refused = await payCall(o);
  expect(Date.now() - t0).toBeLessThan(1_000); // no WeChat call waited on (generous: busy test machines)
  expect(refused.status).toBe(503);
  expect(refused.body.error).toMatchObject({ code: 'WECHAT_BUSY', message: '微信支付繁忙，请稍后再试' });
  expect(refused.headers.get('retry-after')).toBe('5');
  expect(p.sim.faults().failNextRequests).toBe(8); // the refused call never reached WeChat
  await healBreaker();
  const paid = await payCall(o);
  expect(paid.status).toBe(200);
  expect(paid.body.prepayId).toEqual(expect.any(String));
});

it('gives up on a slow WeChat after WECHAT_TIMEOUT_MS and tells the fan WeChat is busy', async () => {
  const o = await pendingOrder('openid-breaker-2');
  p.sim.setFaults({ apiDelayMs: 6_000 });
  const t0 = Date.now();
  const r = await payCall(o);
  expect(Date.now() - t0).toBeLessThan(5_000); // the timeout, not WeChat's 6 s
  expect(r.status).toBe(503);
  expect(r.body.error).toMatchObject({ code: 'WECHAT_BUSY', details: { reason: 'TIMEOUT' } });
  await healBreaker();
});

it("WeChat's answers about the request (a 404, ORDERPAID) do not open the breaker", async () => {
  for (let i = 0; i < 5; i++) expect(await p.deps.pay.query(`MISSING-${i}`)).toBeUndefined();
  expect(p.deps.wechatBreaker!.state).toBe('closed');
});

it('a refund the open breaker refused stays requested and the sweeper sends it once WeChat is back', async () => {
  const o = await pendingOrder('openid-breaker-refund');
  const pay = await payCall(o);
  expect(pay.status).toBe(200);
  p.sim.pay(pay.body.payParams);
  await p.until(
    async () => (await one('SELECT status FROM orders WHERE order_no = ?', [o.orderNo])).status === 2,
    'paid',
  );
  const orderId = String((await one('SELECT id FROM orders WHERE order_no = ?', [o.orderNo])).id);
  await issueTickets(p.deps, orderId, p.clock.now());
  const refund = await adminRefund(p, orderId);
  // WeChat fails: the breaker opens on the query calls of payment checks (half of the window's
  // calls failed; the window also holds the successes above).
  p.sim.setFaults({ failNextRequests: 30 });
  for (let i = 0; i < 30 && p.deps.wechatBreaker!.state !== 'open'; i++)
    await expect(p.deps.pay.query(o.orderNo)).rejects.toThrow(/SYSTEM_ERROR/);
  expect(p.deps.wechatBreaker!.state).toBe('open');
  await expect(p.deps.refunds.execute(refund.id, p.clock.now())).rejects.toBeInstanceOf(WechatBusyError);
  const row = await one('SELECT status, attempts, out_refund_no FROM refunds WHERE id = ?', [refund.id]);
  expect(row).toMatchObject({ status: 0, attempts: 1 }); // requested, one attempt noted
  expect(p.sim.refunds().filter((x) => x.out_trade_no === o.orderNo)).toEqual([]);
  await healBreaker();
  const later = new Date(p.clock.now().getTime() + 60 * 60_000);
  expect(await resendStuckRefunds(p.deps, later, 60_000)).toBe(1);
  await p.until(
    async () => (await one('SELECT status FROM refunds WHERE id = ?', [refund.id])).status === 2,
    'refund succeeded',
  );
  expect(refundNosAtWechat(p, o.orderNo)).toEqual([row.out_refund_no]);
});
