import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { startSimulator, Simulator, testKeys } from '../src';
import { authorization, jsapiBody, tradeNo, verifyWechatSignature, wxRequest } from './helpers';

const today = () => new Date(Date.now() + 8 * 3600 * 1000).toISOString().slice(0, 10);

async function download(url: string) {
  const { pathname, search } = new URL(url);
  const res = await fetch(url, { headers: { Authorization: authorization('GET', pathname + search, '') } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
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
    const { transactionId } = sim.pay(json.prepay_id);
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
    expect(lines[0].split(',')).toHaveLength(27);
    expect(lines[0].startsWith('交易时间,公众账号ID,商户号')).toBe(true);
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
