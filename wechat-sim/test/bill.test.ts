import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { startSimulator, Simulator, testKeys } from '../src';
import { applyTradeBill, billFile, BILL_URL_TTL_MS } from '../src/bill';
import { defaultFaults } from '../src/faults';
import { Order, Store } from '../src/store';
import {
  authorization,
  jsapiBody,
  requestPayment,
  tradeNo,
  verifyWechatSignature,
  wxRequest,
} from './helpers';

const today = () => new Date(Date.now() + 8 * 3600 * 1000).toISOString().slice(0, 10);

async function download(url: string) {
  const { pathname, search } = new URL(url);
  const res = await fetch(url, { headers: { Authorization: authorization('GET', pathname + search, '') } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Header names, rows as name -> value, and the summary line of a downloaded bill. */
function parseBill(csv: Buffer) {
  const lines = csv
    .toString('utf8')
    .replace(/^\ufeff/, '')
    .split('\r\n');
  const header = lines[0].split(',');
  const body = lines.slice(1).filter((l) => l.startsWith('`'));
  const rows = body.slice(0, -1).map((l) => {
    const values = l.split(',').map((v) => v.replace(/^`/, ''));
    expect(values).toHaveLength(header.length);
    return Object.fromEntries(header.map((h, i) => [h, values[i]]));
  });
  return {
    header,
    rows,
    summary: body
      .at(-1)!
      .split(',')
      .map((v) => v.replace(/^`/, '')),
  };
}

describe('trade bill', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ refundDelayMs: 1 });
  });
  afterAll(() => sim.close());

  it('answers NO_STATEMENT_EXIST for a day without trades', async () => {
    const res = await wxRequest(sim.url, 'GET', `/v3/bill/tradebill?bill_date=${today()}&bill_type=ALL`);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('NO_STATEMENT_EXIST');
    const bad = await wxRequest(sim.url, 'GET', '/v3/bill/tradebill?bill_date=2024-13-99');
    expect(bad.json.code).toBe('PARAM_ERROR');
  });

  it("serves the day's payments and refunds in WeChat's CSV layout with a matching SHA1", async () => {
    const order = jsapiBody('http://127.0.0.1:9/n', {
      description: '话剧,首演',
      amount: { total: 12345, currency: 'CNY' },
    });
    const { json } = await wxRequest(sim.url, 'POST', '/v3/pay/transactions/jsapi', order);
    const { transactionId } = sim.pay(requestPayment(json.prepay_id));
    const outRefundNo = tradeNo('R');
    await wxRequest(sim.url, 'POST', '/v3/refund/domestic/refunds', {
      out_trade_no: order.out_trade_no,
      out_refund_no: outRefundNo,
      amount: { refund: 2345, total: 12345, currency: 'CNY' },
    });
    await sim.waitFor(() => sim.refund(outRefundNo)?.status === 'SUCCESS');

    const res = await wxRequest(sim.url, 'GET', `/v3/bill/tradebill?bill_date=${today()}&bill_type=ALL`);
    expect(res.status).toBe(200);
    expect(verifyWechatSignature(res.headers, res.text)).toBe(true);
    expect(res.json).toEqual({
      hash_type: 'SHA1',
      hash_value: expect.stringMatching(/^[0-9a-f]{40}$/),
      download_url: expect.any(String),
    });
    expect(res.json.download_url.startsWith(`${sim.url}/v3/billdownload/file?token=`)).toBe(true);

    const file = await download(res.json.download_url);
    expect(file.status).toBe(200);
    expect(file.headers.get('wechatpay-signature')).toBeNull(); // bill files are not signed
    expect(createHash('sha1').update(file.bytes).digest('hex')).toBe(res.json.hash_value);

    const lines = file.bytes
      .toString('utf8')
      .replace(/^\ufeff/, '')
      .split('\r\n');
    expect(lines.at(-1)).toBe('');
    // The ALL layout's 27 column names, exactly (merchants parse the bill by these names).
    expect(lines[0]).toBe(
      '交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,' +
        '付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,' +
        '退款类型,退款状态,商品名称,商户数据包,手续费,费率,订单金额,申请退款金额,费率备注',
    );
    const rows = lines.slice(1, 3).map((l) => l.split(',').map((f) => f.replace(/^`/, '')));
    expect(lines[1].split(',').every((f) => f.startsWith('`'))).toBe(true);
    const [pay, refund] = rows;
    expect(pay).toHaveLength(27);
    expect([pay[1], pay[2], pay[5], pay[6], pay[9], pay[12], pay[24]]).toEqual([
      testKeys.appid,
      testKeys.mchid,
      transactionId,
      order.out_trade_no,
      'SUCCESS',
      '123.45',
      '123.45',
    ]);
    expect(pay[20]).toBe('话剧，首演');
    expect(refund[0]).toBe(pay[0]); // a refund row keeps the payment's 交易时间
    expect([refund[9], refund[15], refund[16], refund[19], refund[25]]).toEqual([
      'REFUND',
      outRefundNo,
      '23.45',
      'SUCCESS',
      '23.45',
    ]);
    expect(lines[3]).toBe(
      '总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额',
    );
    expect(lines[4].split(',')).toEqual([
      '`2',
      '`123.45',
      '`23.45',
      '`0.00',
      '`0.60000',
      '`123.45',
      '`23.45',
    ]);
  });

  it('filters by bill_type and serves GZIP when asked', async () => {
    const success = await wxRequest(
      sim.url,
      'GET',
      `/v3/bill/tradebill?bill_date=${today()}&bill_type=SUCCESS&tar_type=GZIP`,
    );
    const file = await download(success.json.download_url);
    expect(file.headers.get('content-type')).toMatch(/gzip/);
    const csv = gunzipSync(file.bytes);
    expect(createHash('sha1').update(csv).digest('hex')).toBe(success.json.hash_value);
    expect(csv.toString()).not.toMatch(/`REFUND/);
    const bad = await download(`${sim.url}/v3/billdownload/file?token=nope`);
    expect(bad.status).toBe(400);
  });
});

describe('trade bill layouts, dates and download links', () => {
  let sim: Simulator;
  let order: ReturnType<typeof jsapiBody>;
  let outRefundNo: string;
  beforeAll(async () => {
    sim = await startSimulator({ refundDelayMs: 1100, billUrlTtlMs: 1000 });
    order = jsapiBody('http://127.0.0.1:9/n', { amount: { total: 10000, currency: 'CNY' } });
    const { json } = await wxRequest(sim.url, 'POST', '/v3/pay/transactions/jsapi', order);
    sim.pay(requestPayment(json.prepay_id));
    outRefundNo = tradeNo('R');
    await wxRequest(sim.url, 'POST', '/v3/refund/domestic/refunds', {
      out_trade_no: order.out_trade_no,
      out_refund_no: outRefundNo,
      amount: { refund: 2500, total: 10000, currency: 'CNY' },
    });
  });
  afterAll(() => sim.close());

  const bill = async (type: string) => {
    const res = await wxRequest(sim.url, 'GET', `/v3/bill/tradebill?bill_date=${today()}&bill_type=${type}`);
    expect(res.status).toBe(200);
    return {
      url: res.json.download_url as string,
      ...parseBill((await download(res.json.download_url)).bytes),
    };
  };

  it('SUCCESS has the documented 20 columns and only payments', async () => {
    const { header, rows, summary } = await bill('SUCCESS');
    expect(header.join(',')).toBe(
      '交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,' +
        '付款银行,货币种类,应结订单金额,代金券金额,商品名称,商户数据包,手续费,费率,订单金额,费率备注',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      商户订单号: order.out_trade_no,
      交易状态: 'SUCCESS',
      订单金额: '100.00',
    });
    expect(summary).toEqual(['1', '100.00', '0.00', '0.00', '0.60000', '100.00', '0.00']);
  });

  it('REFUND has the documented 29 columns, with 退款申请时间 and 退款成功时间 (a snapshot)', async () => {
    const processing = await bill('REFUND');
    expect(processing.header.join(',')).toBe(
      '交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,' +
        '付款银行,货币种类,应结订单金额,代金券金额,退款申请时间,退款成功时间,微信退款单号,商户退款单号,' +
        '退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,订单金额,申请退款金额,费率备注',
    );
    const beijing = (rfc3339: unknown) => String(rfc3339).slice(0, 19).replace('T', ' ');
    const wxRefund = sim.refund(outRefundNo)!;
    // Accepted, not yet completed: the refund is in today's bill already, as PROCESSING.
    expect(processing.rows).toEqual([
      expect.objectContaining({
        交易时间: beijing(sim.order(order.out_trade_no)!.success_time),
        交易状态: 'REFUND',
        退款申请时间: beijing(wxRefund.create_time),
        退款成功时间: '',
        商户退款单号: outRefundNo,
        退款金额: '25.00',
        退款状态: 'PROCESSING',
        应结订单金额: '0.00',
        订单金额: '0.00',
        申请退款金额: '25.00',
      }),
    ]);
    await sim.waitFor(() => sim.refund(outRefundNo)?.status === 'SUCCESS');
    const done = await bill('REFUND');
    expect(done.rows[0]).toMatchObject({
      退款状态: 'SUCCESS',
      退款成功时间: beijing(sim.refund(outRefundNo)!.success_time),
    });
    expect(done.summary).toEqual(['1', '0.00', '25.00', '0.00', '-0.15000', '0.00', '25.00']);
  });

  it('a download_url expires after minutes (here: the test setting of 1 s)', async () => {
    const res = await wxRequest(sim.url, 'GET', `/v3/bill/tradebill?bill_date=${today()}&bill_type=ALL`);
    expect((await download(res.json.download_url)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    const expired = await download(res.json.download_url);
    expect(expired.status).toBe(400);
    expect(JSON.parse(expired.bytes.toString()).code).toBe('INVALID_REQUEST');
  });
});

describe('trade bill dates (store level, fixed clock)', () => {
  const at = (iso: string) => Date.parse(iso);
  const paidAt = at('2026-05-01T10:00:00+08:00');
  const accepted = at('2026-05-01T23:59:58+08:00');
  const completed = at('2026-05-02T00:00:03+08:00');

  function store(): Store {
    const s = new Store(defaultFaults());
    const o: Order = {
      appid: testKeys.appid,
      mchid: testKeys.mchid,
      description: '测试',
      out_trade_no: 'T-midnight',
      notify_url: 'http://127.0.0.1:9/n',
      amount: { total: 1000, currency: 'CNY' },
      payer: { openid: 'o1' },
      prepay_id: 'wx-p',
      fingerprint: '',
      createdAt: paidAt - 1000,
      trade_state: 'REFUND',
      transaction_id: '4200000000000000000000000001',
      success_time: '2026-05-01T10:00:00+08:00',
      paidAt,
    };
    s.addOrder(o);
    s.refunds.set('R-midnight', {
      refund_id: '50000000000000000000000000001',
      out_refund_no: 'R-midnight',
      transaction_id: o.transaction_id!,
      out_trade_no: o.out_trade_no,
      status: 'SUCCESS',
      outcome: 'SUCCESS',
      refund: 1000,
      total: 1000,
      currency: 'CNY',
      fingerprint: '',
      createdAt: accepted,
      create_time: '2026-05-01T23:59:58+08:00',
      success_time: '2026-05-02T00:00:03+08:00',
      finishedAt: completed,
    });
    return s;
  }
  const fileOf = (s: Store, date: string, type: string) => {
    const answer = applyTradeBill(s, { bill_date: date, bill_type: type }, 'http://sim');
    return parseBill(s.bills.get(new URL(answer.download_url).searchParams.get('token')!)!.content);
  };

  it('a refund accepted before midnight and completed after is in the bill of the day it was accepted', () => {
    const s = store();
    expect(fileOf(s, '2026-05-01', 'REFUND').rows[0]).toMatchObject({
      交易时间: '2026-05-01 10:00:00',
      退款申请时间: '2026-05-01 23:59:58',
      退款成功时间: '2026-05-02 00:00:03',
    });
    expect(fileOf(s, '2026-05-01', 'ALL').rows.map((r) => r['交易状态'])).toEqual(['SUCCESS', 'REFUND']);
    expect(() => fileOf(s, '2026-05-02', 'REFUND')).toThrow('账单文件不存在');
    expect(() => fileOf(s, '2026-05-02', 'ALL')).toThrow('账单文件不存在');
  });

  it('a download token is valid for 5 minutes by default, then forgotten', () => {
    const s = store();
    const answer = applyTradeBill(s, { bill_date: '2026-05-01', bill_type: 'ALL' }, 'http://sim');
    const token = new URL(answer.download_url).searchParams.get('token')!;
    const created = s.bills.get(token)!.createdAt;
    expect(billFile(s, token, BILL_URL_TTL_MS, created + 5 * 60_000 - 1)).toBeDefined();
    expect(billFile(s, token, BILL_URL_TTL_MS, created + 5 * 60_000)).toBeUndefined();
    expect(s.bills.size).toBe(0);
  });
});
