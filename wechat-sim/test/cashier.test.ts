import { startSimulator, Simulator, testKeys } from '../src';
import { beijingRfc3339, jsapiBody, PayParams, platformKey, requestPayment, wxRequest } from './helpers';

/** The cashier URL the H5 stand-in for wx.requestPayment opens: the parameters, as they are. */
function cashierUrl(
  base: string,
  params: Partial<PayParams> | Record<string, string>,
  returnUrl?: string,
): string {
  const q = new URLSearchParams(params as Record<string, string>);
  if (returnUrl) q.set('return_url', returnUrl);
  return `${base}/sim/cashier?${q.toString()}`;
}

describe('H5 cashier page', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(() => sim.close());

  async function prepay(overrides: Record<string, unknown> = {}) {
    const body = jsapiBody('http://127.0.0.1:9/n', overrides);
    const { json } = await wxRequest(sim.url, 'POST', '/v3/pay/transactions/jsapi', body);
    const prepayId = json.prepay_id as string;
    return { prepayId, outTradeNo: body.out_trade_no, params: requestPayment(prepayId) };
  }

  const form = (path: string, fields: Record<string, string>) =>
    fetch(`${sim.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  /** A fresh order's cashier form sent (confirm or cancel): it redirects (303) to where? */
  async function submit(action: 'confirm' | 'cancel', returnUrl: string) {
    const order = await prepay();
    const res = await form(`/sim/cashier/${action}`, { ...order.params, return_url: returnUrl });
    expect(res.status).toBe(303);
    return { ...order, location: res.headers.get('location') };
  }

  it('renders the order in Chinese with stable test ids', async () => {
    const { prepayId, outTradeNo, params } = await prepay();
    // The server's cashier URL carries prepay_id; the H5 client adds the parameters.
    const res = await fetch(
      cashierUrl(sim.url, { prepay_id: prepayId, ...params }, 'http://localhost:5173/pay'),
    );
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain('name="viewport"');
    expect(html).toContain('微信支付');
    expect(html).toContain(testKeys.merchantName);
    expect(html).toContain('>12.34<');
    expect(html).toContain(outTradeNo);
    expect(html).toMatch(/data-testid="cashier-confirm"[^>]*>确认支付</);
    expect(html).toMatch(/data-testid="cashier-cancel"[^>]*>取消</);
  });

  it('confirm pays and redirects with result=success (query or hash route)', async () => {
    const { outTradeNo, params, location } = await submit(
      'confirm',
      'http://localhost:5173/#/pages/order/detail?no=1',
    );
    expect(location).toBe('http://localhost:5173/#/pages/order/detail?no=1&result=success');
    expect(sim.order(outTradeNo)?.trade_state).toBe('SUCCESS');
    const again = await fetch(cashierUrl(sim.url, params));
    expect(await again.text()).toContain('订单已支付');
  });

  it('cancel redirects with result=cancel and leaves the order unpaid', async () => {
    const { outTradeNo, location } = await submit('cancel', 'http://localhost:5173/pay?x=1');
    expect(location).toBe('http://localhost:5173/pay?x=1&result=cancel');
    expect(sim.order(outTradeNo)?.trade_state).toBe('NOTPAY');
  });

  it('shows 订单已关闭 for an expired or closed order and refuses to pay it', async () => {
    const { outTradeNo, params } = await prepay({ time_expire: beijingRfc3339(Date.now() + 1500) });
    await new Promise((r) => setTimeout(r, 1600));
    const page = await fetch(cashierUrl(sim.url, params, 'http://localhost:5173/pay'));
    const html = await page.text();
    expect(page.status).toBe(409);
    expect(html).toContain('订单已关闭');
    expect(html).not.toContain('cashier-confirm');
    expect(html).toContain('http://localhost:5173/pay?result=closed');
    const confirm = await form('/sim/cashier/confirm', { ...params });
    expect(confirm.status).toBe(409);
    expect(sim.order(outTradeNo)?.trade_state).toBe('NOTPAY');
  });

  it('rejects unknown prepay ids and non-http return URLs', async () => {
    const unknown = await fetch(cashierUrl(sim.url, requestPayment('wx-nope')));
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('订单不存在');
    const { params } = await prepay();
    const js = await fetch(cashierUrl(sim.url, params, 'javascript:alert(1)'));
    expect(js.status).toBe(400);
  });

  it('refuses to open or pay with a prepay id alone, a forged paySign, another app or package', async () => {
    const { prepayId, outTradeNo, params } = await prepay();
    const other = await prepay();
    const back = 'http://localhost:5173/#/pages/order/index?orderNo=1';
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ prepay_id: prepayId }, 400, 'PARAM_ERROR'],
      [{ ...requestPayment(prepayId, { key: platformKey }) }, 401, 'SIGN_ERROR'],
      [{ ...params, timeStamp: String(Number(params.timeStamp) - 1) }, 401, 'SIGN_ERROR'],
      [{ ...params, package: `prepay_id=${other.prepayId}` }, 401, 'SIGN_ERROR'],
      [{ ...params, prepay_id: other.prepayId }, 400, 'PARAM_ERROR'],
      [{ ...params, appId: 'wx00000000000000ff' }, 403, 'APPID_MISMATCH'],
    ];
    for (const [fields, status, code] of cases) {
      const page = await fetch(cashierUrl(sim.url, fields, back));
      const html = await page.text();
      expect({ status: page.status, code: /data-code="(\w+)"/.exec(html)?.[1] }).toEqual({ status, code });
      expect(html).not.toContain('cashier-confirm');
      expect(html).toContain(`${back}&#38;result=fail`);
      const confirm = await form('/sim/cashier/confirm', { ...fields, return_url: back });
      expect(confirm.status).toBe(status);
    }
    expect(await (await fetch(cashierUrl(sim.url, { ...params, paySign: 'AAAA' }))).text()).toContain(
      '支付验证签名失败',
    );
    expect(sim.order(outTradeNo)?.trade_state).toBe('NOTPAY');
    expect(sim.order(other.outTradeNo)?.trade_state).toBe('NOTPAY');
  });
});
