import type { RowDataPacket } from 'mysql2/promise';
import { beijingDate } from '../../src/payments/reconcile';
import { createSession, type SessionFixture } from '../helpers/fixtures';
import { createPayEnv, type PayEnv } from '../helpers/pay-env';
import { ADMIN_ENV, loginAdmin } from './helpers';

/**
 * The settlement report agrees with the reconciliation: after real payments and a refund through
 * the simulator, the day's reconciliation finds no difference, and the report's gross, refunds and
 * WeChat fees for that day are the totals of the very bill the reconciliation checked.
 */
let p: PayEnv;
let s: SessionFixture;
let other: SessionFixture;
let admin: string;

beforeAll(async () => {
  p = await createPayEnv({ env: ADMIN_ENV });
  // A 20% refund fee: the refund is partial, so refund amounts and their fees are not the payment's.
  s = await createSession(p.deps, {
    seats: 10,
    vip: 3,
    refundRules: [{ hoursBeforeStart: 0, feePercent: 20 }],
  });
  other = await createSession(p.deps, { seats: 4 });
  admin = await loginAdmin(p.api);
});
afterAll(() => p.close());

async function orderStatus(orderNo: string): Promise<number> {
  const [rows] = await p.deps.db.query<RowDataPacket[]>('SELECT status FROM orders WHERE order_no = ?', [
    orderNo,
  ]);
  return Number(rows[0]!.status);
}

async function ticketed(openid: string, sessionId: string, seatIds: string[]) {
  const o = await p.orderAndPrepay(openid, { sessionId, seatIds });
  p.sim.pay(o.payParams);
  await p.until(async () => (await orderStatus(o.orderNo)) === 3, `order ${o.orderNo} ticketed`);
  return o;
}

/** The bill's summary line (总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,...) in fen. */
function billTotals(csv: string): { settledFen: number; refundFen: number; feeFen: number } {
  const lines = csv
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean);
  const at = lines.findIndex((l) => l.startsWith('总交易单数'));
  const values = lines[at + 1]!.split(',').map((v) => v.replace(/^`/, ''));
  const fen = (yuan: string) => Math.round(Number(yuan) * 100);
  return { settledFen: fen(values[1]!), refundFen: fen(values[2]!), feeFen: fen(values[4]!) };
}

it("a day's settlement equals its reconciled bill: gross, refunds and WeChat's fees to the fen", async () => {
  await ticketed('openid-rep-1', s.sessionId, s.seatIds.slice(0, 2)); // 2 VIP: 3,760 yuan
  const refunded = await ticketed('openid-rep-2', s.sessionId, s.seatIds.slice(5, 6)); // 680 yuan
  await ticketed('openid-rep-3', other.sessionId, other.seatIds.slice(0, 3)); // 3 x 680 yuan
  const r = await p.api.call('POST', `/api/v1/orders/${refunded.orderNo}/refund`, {
    token: refunded.fan.token,
    body: {},
  });
  expect(r.status).toBe(200);
  await p.until(async () => (await orderStatus(refunded.orderNo)) === 5, 'the refund paid out');

  const now = p.clock.now();
  const day = beijingDate(now);
  const report = await p.deps.reconciler.reconcile(day, now);
  expect(report).toMatchObject({
    wechatPayments: 3,
    ourPayments: 3,
    wechatRefunds: 1,
    ourRefunds: 1,
    unmatched: [],
  });
  const bill = billTotals((await p.deps.pay.tradeBill(day))!);

  const res = await p.api.call('GET', `/api/v1/admin/reports/settlement?from=${day}&to=${day}`, {
    token: admin,
  });
  expect(res.status).toBe(200);
  const t = res.body.totals;
  expect(t.payments).toBe(3);
  expect(t.grossFen).toBe(bill.settledFen);
  expect(t.refundedFen).toBe(bill.refundFen);
  expect(t.feeFen).toBe(bill.feeFen);
  expect(t.netFen).toBe(bill.settledFen - bill.refundFen - bill.feeFen);
  // The numbers themselves: 3,760 + 680 + 2,040 yuan paid; 80% of 680 refunded; 0.60% per line.
  expect(t.grossFen).toBe(376_000 + 68_000 + 204_000);
  expect(t.refundedFen).toBe(54_400);
  expect(t.feeFen).toBe(2_256 + 408 + 1_224 - 326);
  expect(res.body.rows.map((row: any) => row.sessionId).sort()).toEqual(
    [s.sessionId, other.sessionId].sort(),
  );

  // Sales of the same day: the refunded order still counts as sold, its refund beside it.
  const sales = (
    await p.api.call('GET', `/api/v1/admin/reports/sales?sessionId=${s.sessionId}&from=${day}&to=${day}`, {
      token: admin,
    })
  ).body;
  expect(sales.byDay).toEqual([{ date: day, orders: 2, tickets: 3, grossFen: 444_000, refundedFen: 54_400 }]);
  expect(sales.byChannel).toEqual([{ channel: 'miniprogram', orders: 2, tickets: 3, grossFen: 444_000 }]);
  expect(sales.byTier.map((x: any) => [x.tierName, x.tickets, x.grossFen])).toEqual([
    ['VIP', 2, 376_000],
    ['看台', 1, 68_000],
  ]);
});
