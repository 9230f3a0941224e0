import type { RowDataPacket } from 'mysql2/promise';
import { parseTradeBill } from '../src/payments/bill';
import { beijingDate, Reconciler } from '../src/payments/reconcile';
import type { WechatPay } from '../src/wechat/pay';
import type { SessionFixture } from './helpers/fixtures';
import { payEnvWithSession, type PayEnv } from './helpers/pay-env';

/** Daily reconciliation against the trade bill the simulator serves, in WeChat's format. */
let p: PayEnv;
let s: SessionFixture;
beforeAll(async () => {
  ({ p, s } = await payEnvWithSession(10));
});
afterAll(() => p.close());

async function paid(i: number, drop = false): Promise<string> {
  const o = await p.orderAndPrepay(`openid-bill-${i}`, { sessionId: s.sessionId, seatIds: [s.seatIds[i]] });
  if (drop) p.sim.setFaults({ drop: true });
  p.sim.pay(o.payParams);
  p.sim.resetFaults();
  return o.orderNo;
}

it('finds a payment we never heard of, recovers it into tickets, and reports nothing else', async () => {
  const seen = await paid(0);
  const lost = await paid(1, true); // its notification never comes
  await p.until(async () => {
    const [rows] = await p.deps.db.query<RowDataPacket[]>('SELECT status FROM orders WHERE order_no = ?', [
      seen,
    ]);
    return rows[0]!.status === 3;
  }, 'the first order ticketed');
  const today = beijingDate(p.clock.now());
  const report = await p.deps.reconciler.reconcile(today, p.clock.now());
  expect(report).toMatchObject({
    billDate: today,
    wechatPayments: 2,
    ourPayments: 1,
    recovered: 1,
    unmatched: [],
  });
  await p.until(async () => {
    const [rows] = await p.deps.db.query<RowDataPacket[]>('SELECT status FROM orders WHERE order_no = ?', [
      lost,
    ]);
    return rows[0]!.status === 3;
  }, 'the recovered order ticketed');
  expect(await p.deps.reconciler.reconcile(today, p.clock.now())).toBeUndefined(); // one run per day
  const [[row]] = await p.deps.db.query<RowDataPacket[]>(
    'SELECT status, recovered FROM reconciliations WHERE bill_date = ?',
    [today],
  );
  expect(row).toMatchObject({ status: 'ok', recovered: 1 });
});

async function ticketed(i: number): Promise<{ orderNo: string; token: string }> {
  const o = await p.orderAndPrepay(`openid-bill-${i}`, { sessionId: s.sessionId, seatIds: [s.seatIds[i]] });
  p.sim.pay(o.payParams);
  await p.until(async () => (await orderRow(o.orderNo)).status === 3, `order ${o.orderNo} ticketed`);
  return { orderNo: o.orderNo, token: o.fan.token };
}

async function orderRow(orderNo: string): Promise<RowDataPacket> {
  const [rows] = await p.deps.db.query<RowDataPacket[]>('SELECT id, status FROM orders WHERE order_no = ?', [
    orderNo,
  ]);
  return rows[0]!;
}

async function refunded(o: { orderNo: string; token: string }): Promise<void> {
  const r = await p.api.call('POST', `/api/v1/orders/${o.orderNo}/refund`, { token: o.token, body: {} });
  expect(r.status).toBe(200);
  await p.until(async () => (await orderRow(o.orderNo)).status === 5, `order ${o.orderNo} refunded`);
}

/** WeChat's bill of one day, served by hand: the same HTTP client answers every other call. */
function billsServedFrom(bills: Record<string, string>): Reconciler {
  const pay = Object.create(p.deps.pay) as WechatPay;
  pay.tradeBill = async (date: string) => bills[date];
  return new Reconciler(p.deps.db, pay, p.deps.payments, p.deps.log);
}

/** The bill split by line: header, trade lines, summary lines. */
function billParts(csv: string): { header: string; trades: string[]; summary: string[] } {
  const lines = csv
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean);
  const end = lines.findIndex((l, i) => i > 0 && !l.startsWith('`'));
  return { header: lines[0]!, trades: lines.slice(1, end), summary: lines.slice(end) };
}

describe('payments and refunds in the bill', () => {
  let day: string;
  beforeAll(async () => {
    await p.deps.db.query('DELETE FROM reconciliations');
    day = beijingDate(p.clock.now());
  });

  it('a day with a payment and its refund has no difference', async () => {
    const o = await ticketed(2);
    await refunded(o);
    await p.deps.db.query('DELETE FROM reconciliations');
    const report = await p.deps.reconciler.reconcile(day, p.clock.now());
    expect(report).toMatchObject({
      billDate: day,
      wechatRefunds: 1,
      ourRefunds: 1,
      recovered: 0,
      unmatched: [],
    });
  });

  it("a refund of an earlier day's payment is matched to that payment, every missed day is checked", async () => {
    const o = await ticketed(3);
    await refunded(o);
    // The payment was made two days ago, the refund today; nothing ran yesterday.
    const { id } = await orderRow(o.orderNo);
    await p.deps.db.query(
      'UPDATE payments SET success_time = success_time - INTERVAL 2 DAY WHERE order_id = ?',
      [id],
    );
    const csv = (await p.deps.pay.tradeBill(day))!;
    const { header, trades, summary } = billParts(csv);
    const [tx] = (
      await p.deps.db.query<RowDataPacket[]>('SELECT transaction_id FROM payments WHERE order_id = ?', [id])
    )[0];
    const mine = trades.filter((t) => t.includes(tx!.transaction_id));
    const others = trades.filter((t) => !t.includes(tx!.transaction_id));
    const bill = (lines: string[]) => [header, ...lines, ...summary].join('\r\n');
    const twoDaysAgo = beijingDate(p.clock.now(), -2);
    const yesterday = beijingDate(p.clock.now(), -1);
    const bills = {
      [twoDaysAgo]: bill(mine.filter((t) => t.includes('`SUCCESS'))),
      [day]: bill([...others, ...mine.filter((t) => t.includes('`REFUND'))]),
    };
    await p.deps.db.query('DELETE FROM reconciliations');
    const tomorrowNoon = new Date(Date.parse(`${day}T12:00:00+08:00`) + 86_400_000);
    const reports = await billsServedFrom(bills).reconcileDue(tomorrowNoon);
    expect(reports.map((r) => [r.billDate, r.unmatched, r.recovered])).toEqual([
      [twoDaysAgo, [], 0],
      [yesterday, [], 0],
      [day, [], 0],
    ]);
    const kept = await p.deps.reconciler.results();
    expect(kept.map((r) => [r.billDate, r.status])).toEqual([
      [day, 'ok'],
      [yesterday, 'ok'],
      [twoDaysAgo, 'ok'],
    ]);
    // Nothing left to do, and a later run does not repeat them.
    expect(await billsServedFrom(bills).reconcileDue(tomorrowNoon)).toEqual([]);
  });

  it('takes over a day left running by an instance that died, once it is clearly abandoned', async () => {
    await p.deps.db.query('DELETE FROM reconciliations');
    const now = p.clock.now();
    await p.deps.db.query(
      "INSERT INTO reconciliations (bill_date, status, started_at) VALUES (?, 'running', ?)",
      [day, new Date(now.getTime() - 10 * 60_000)],
    );
    expect(await p.deps.reconciler.reconcile(day, now)).toBeUndefined(); // still being done elsewhere
    const later = new Date(now.getTime() + 21 * 60_000);
    expect(await p.deps.reconciler.reconcile(day, later)).toMatchObject({ billDate: day, unmatched: [] });
  });

  it('reports money taken in another currency and refunds unknown to us', async () => {
    const csv = (await p.deps.pay.tradeBill(day))!;
    const { header, trades, summary } = billParts(csv);
    const cols = header.split(',');
    const swap = (line: string, col: string, value: string) => {
      const f = line.split(',');
      f[cols.indexOf(col)] = `\`${value}`;
      return f.join(',');
    };
    const payment = trades.find((t) => t.includes('`SUCCESS'))!;
    const refund = trades.find((t) => t.includes('`REFUND'))!;
    const bill = [
      header,
      ...trades.filter((t) => t !== payment),
      swap(payment, '货币种类', 'USD'),
      swap(refund, '商户退款单号', 'R-not-ours'),
      ...summary,
    ].join('\r\n');
    await p.deps.db.query('DELETE FROM reconciliations');
    const report = await billsServedFrom({ [day]: bill }).reconcile(day, p.clock.now());
    expect(report!.unmatched).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/paid in USD, we recorded CNY/),
        expect.stringMatching(/R-not-ours.*unknown to us/),
      ]),
    );
    // Money we recorded as taken in USD (outcome wrong_currency, refunded in full when recorded)
    // agrees with a bill that says USD: no difference.
    const txId = payment.split(',')[cols.indexOf('微信订单号')]!.replace(/^`/, '');
    await p.deps.db.query("UPDATE payments SET currency = 'USD' WHERE transaction_id = ?", [txId]);
    await p.deps.db.query('DELETE FROM reconciliations');
    try {
      const again = await billsServedFrom({ [day]: bill }).reconcile(day, p.clock.now());
      expect(again!.unmatched.filter((u) => u.includes('USD'))).toEqual([]);
    } finally {
      await p.deps.db.query("UPDATE payments SET currency = 'CNY' WHERE transaction_id = ?", [txId]);
    }
  });
});

describe('the trade bill parser', () => {
  it('finds columns by name, whatever their order, and reads quoted fields', () => {
    const csv =
      '\uFEFF商户订单号,交易状态,"商品名称",微信订单号,订单金额,货币种类,商户退款单号,退款金额,退款状态,微信退款单号\r\n' +
      '`O1,`SUCCESS,"`演唱会,内场",`T1,`680.00,`CNY,`0,`0.00,`,`0\r\n' +
      '`O1,`REFUND,`演唱会,`T1,`0.00,`CNY,`R1,`680.00,`SUCCESS,`W1\r\n' +
      '总交易单数,应结订单总金额\r\n`2,`680.00\r\n';
    expect(parseTradeBill(csv)).toEqual([
      { kind: 'payment', transactionId: 'T1', outTradeNo: 'O1', totalFen: 68_000, currency: 'CNY' },
      {
        kind: 'refund',
        transactionId: 'T1',
        outTradeNo: 'O1',
        refundId: 'W1',
        outRefundNo: 'R1',
        refundFen: 68_000,
        refundStatus: 'SUCCESS',
        currency: 'CNY',
      },
    ]);
  });
});
