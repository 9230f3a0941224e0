import { startSimulator, Simulator, testKeys } from '../src';
import { beijingRfc3339, jsapiBody, wxRequest } from './helpers';

describe('H5 cashier page', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(() => sim.close());

  async function prepay(overrides: Record<string, unknown> = {}) {
    const body = jsapiBody('http://127.0.0.1:9/n', overrides);
    const { json } = await wxRequest(sim.url, 'POST', '/v3/pay/transactions/jsapi', body);
    return { prepayId: json.prepay_id as string, outTradeNo: body.out_trade_no };
  }

  const form = (path: string, fields: Record<string, string>) =>
    fetch(`${sim.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  it('renders the order in Chinese with stable test ids', async () => {
    const { prepayId, outTradeNo } = await prepay();
    const res = await fetch(
      `${sim.url}/sim/cashier?prepay_id=${prepayId}&return_url=${encodeURIComponent('http://localhost:5173/pay')}`,
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
    const { prepayId, outTradeNo } = await prepay();
    const res = await form('/sim/cashier/confirm', {
      prepay_id: prepayId,
      return_url: 'http://localhost:5173/#/pages/order/detail?no=1',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(
      'http://localhost:5173/#/pages/order/detail?no=1&result=success',
    );
    expect(sim.order(outTradeNo)?.trade_state).toBe('SUCCESS');
    const again = await fetch(`${sim.url}/sim/cashier?prepay_id=${prepayId}`);
    expect(await again.text()).toContain('订单已支付');
  });

  it('cancel redirects with result=cancel and leaves the order unpaid', async () => {
    const { prepayId, outTradeNo } = await prepay();
    const res = await form('/sim/cashier/cancel', {
      prepay_id: prepayId,
      return_url: 'http://localhost:5173/pay?x=1',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('http://localhost:5173/pay?x=1&result=cancel');
    expect(sim.order(outTradeNo)?.trade_state).toBe('NOTPAY');
  });

  it('shows 订单已关闭 for an expired or closed order and refuses to pay it', async () => {
    const { prepayId, outTradeNo } = await prepay({ time_expire: beijingRfc3339(Date.now() + 1500) });
    await new Promise((r) => setTimeout(r, 1600));
    const page = await fetch(
      `${sim.url}/sim/cashier?prepay_id=${prepayId}&return_url=${encodeURIComponent('http://localhost:5173/pay')}`,
    );
    const html = await page.text();
    expect(page.status).toBe(409);
    expect(html).toContain('订单已关闭');
    expect(html).not.toContain('cashier-confirm');
    expect(html).toContain('http://localhost:5173/pay?result=closed');
    const confirm = await form('/sim/cashier/confirm', { prepay_id: prepayId });
    expect(confirm.status).toBe(409);
    expect(sim.order(outTradeNo)?.trade_state).toBe('NOTPAY');
  });

  it('rejects unknown prepay ids and non-http return URLs', async () => {
    const unknown = await fetch(`${sim.url}/sim/cashier?prepay_id=wx-nope`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('订单不存在');
    const { prepayId } = await prepay();
    const js = await fetch(`${sim.url}/sim/cashier?prepay_id=${prepayId}&return_url=javascript:alert(1)`);
    expect(js.status).toBe(400);
  });
});
