import { Simulator, testKeys } from '../src';
import {
  beijingRfc3339,
  jsapiBody,
  PayParams,
  platformKey,
  requestPayment,
  Receiver,
  wxRequest,
  withSimAndReceiver,
} from './helpers';

const JSAPI = '/v3/pay/transactions/jsapi';
const byNo = (no: string) => `/v3/pay/transactions/out-trade-no/${no}?mchid=${testKeys.mchid}`;
const close = (sim: Simulator, no: string) =>
  wxRequest(sim.url, 'POST', `/v3/pay/transactions/out-trade-no/${no}/close`, { mchid: testKeys.mchid });
const postPay = (sim: Simulator, body: unknown) =>
  fetch(`${sim.url}/sim/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, json: (await r.json()) as any }));
const simPay = (sim: Simulator, prepayId: string) => postPay(sim, requestPayment(prepayId));

describe('JSAPI payments', () => {
  let sim: Simulator;
  let receiver: Receiver;
  withSimAndReceiver((s, r) => ((sim = s), (receiver = r)));

  it('creates a prepay, is idempotent for the same content, refuses a conflicting reuse', async () => {
    const body = jsapiBody(receiver.url, { attach: 'order-42' });
    const first = await wxRequest(sim.url, 'POST', JSAPI, body);
    const again = await wxRequest(sim.url, 'POST', JSAPI, body);
    const conflict = await wxRequest(sim.url, 'POST', JSAPI, {
      ...body,
      amount: { total: 1, currency: 'CNY' },
    });
    expect(first.status).toBe(200);
    expect(again.json.prepay_id).toBe(first.json.prepay_id);
    expect(conflict.status).toBe(400);
    expect(conflict.json.code).toBe('INVALID_REQUEST');
  });

  it('validates the order like WeChat (PARAM_ERROR, APPID_MCHID_NOT_MATCH)', async () => {
    const noAmount = await wxRequest(sim.url, 'POST', JSAPI, {
      ...jsapiBody(receiver.url),
      amount: { total: 0 },
    });
    const badExpire = await wxRequest(
      sim.url,
      'POST',
      JSAPI,
      jsapiBody(receiver.url, { time_expire: 'tomorrow' }),
    );
    const wrongApp = await wxRequest(
      sim.url,
      'POST',
      JSAPI,
      jsapiBody(receiver.url, { appid: 'wx0000000000000000' }),
    );
    const notJson = await wxRequest(sim.url, 'POST', JSAPI, undefined, { sendBody: undefined });
    expect([noAmount.status, badExpire.status, wrongApp.status, notJson.status]).toEqual([
      400, 400, 400, 400,
    ]);
    expect(noAmount.json.code).toBe('PARAM_ERROR');
    expect(badExpire.json.code).toBe('PARAM_ERROR');
    expect(wrongApp.json.code).toBe('APPID_MCHID_NOT_MATCH');
  });

  it('shows NOTPAY, then SUCCESS with payer and transaction after /sim/pay', async () => {
    const body = jsapiBody(receiver.url);
    const { json } = await wxRequest(sim.url, 'POST', JSAPI, body);
    const before = await wxRequest(sim.url, 'GET', byNo(body.out_trade_no));
    expect(before.json).toMatchObject({
      appid: testKeys.appid,
      mchid: testKeys.mchid,
      out_trade_no: body.out_trade_no,
      trade_state: 'NOTPAY',
      trade_state_desc: '订单未支付',
      amount: { total: 1234, currency: 'CNY' },
    });
    expect(before.json.transaction_id).toBeUndefined();

    const paid = await simPay(sim, json.prepay_id);
    expect(paid.status).toBe(200);
    expect(paid.json).toMatchObject({ ok: true, transactionId: expect.stringMatching(/^4200\d{24}$/) });

    const after = await wxRequest(sim.url, 'GET', byNo(body.out_trade_no));
    expect(after.json).toMatchObject({
      trade_state: 'SUCCESS',
      trade_type: 'JSAPI',
      transaction_id: paid.json.transactionId,
      success_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/),
      payer: { openid: body.payer.openid },
      amount: { total: 1234, payer_total: 1234, currency: 'CNY', payer_currency: 'CNY' },
    });
    const byId = await wxRequest(
      sim.url,
      'GET',
      `/v3/pay/transactions/id/${paid.json.transactionId}?mchid=${testKeys.mchid}`,
    );
    expect(byId.json).toEqual(after.json);

    const twice = await simPay(sim, json.prepay_id);
    expect(twice.status).toBe(409);
    expect(twice.json.code).toBe('ORDERPAID');
    const reorder = await wxRequest(sim.url, 'POST', JSAPI, body);
    expect(reorder.json.code).toBe('ORDERPAID');
  });

  it('closes an unpaid order (204, CLOSED, cannot be paid) and refuses to close a paid one', async () => {
    const unpaid = jsapiBody(receiver.url);
    const { json } = await wxRequest(sim.url, 'POST', JSAPI, unpaid);
    expect((await close(sim, unpaid.out_trade_no)).status).toBe(204);
    expect((await close(sim, unpaid.out_trade_no)).status).toBe(204);
    expect((await wxRequest(sim.url, 'GET', byNo(unpaid.out_trade_no))).json.trade_state).toBe('CLOSED');
    expect((await simPay(sim, json.prepay_id)).json.code).toBe('ORDER_CLOSED');

    const paid = jsapiBody(receiver.url);
    const created = await wxRequest(sim.url, 'POST', JSAPI, paid);
    await simPay(sim, created.json.prepay_id);
    const refused = await close(sim, paid.out_trade_no);
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ code: 'ORDERPAID', message: '订单已支付' });
  });

  it('honours time_expire: NOTPAY until closed, but it can no longer be paid', async () => {
    const body = jsapiBody(receiver.url, { time_expire: beijingRfc3339(Date.now() + 1500) });
    const { json } = await wxRequest(sim.url, 'POST', JSAPI, body);
    await new Promise((r) => setTimeout(r, 1600));
    const refused = await simPay(sim, json.prepay_id);
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('ORDER_EXPIRED');
    expect((await wxRequest(sim.url, 'GET', byNo(body.out_trade_no))).json.trade_state).toBe('NOTPAY');
    expect((await close(sim, body.out_trade_no)).status).toBe(204);
    expect((await wxRequest(sim.url, 'GET', byNo(body.out_trade_no))).json.trade_state).toBe('CLOSED');
  });

  it('answers 404 ORDER_NOT_EXIST for unknown orders, 404 for unknown prepay ids', async () => {
    const res = await wxRequest(sim.url, 'GET', byNo('unknown-123'));
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('ORDER_NOT_EXIST');
    expect((await simPay(sim, 'wx-nope')).status).toBe(404);
  });
});

describe('wx.requestPayment is checked as WeChat checks it', () => {
  let sim: Simulator;
  let receiver: Receiver;
  withSimAndReceiver((s, r) => ((sim = s), (receiver = r)));

  async function prepay(): Promise<{ prepayId: string; outTradeNo: string }> {
    const body = jsapiBody(receiver.url);
    const { json } = await wxRequest(sim.url, 'POST', JSAPI, body);
    return { prepayId: json.prepay_id, outTradeNo: body.out_trade_no };
  }

  /** Refused: the status and code, and the order is still unpaid with nothing notified. */
  async function refused(outTradeNo: string, body: unknown, status: number, code: string) {
    const res = await postPay(sim, body);
    expect({ status: res.status, code: res.json.code }).toEqual({ status, code });
    expect(res.json.message).toMatch(/^requestPayment:fail /);
    expect(sim.order(outTradeNo)?.trade_state).toBe('NOTPAY');
    expect(sim.notifications().filter((n) => n.out_trade_no === outTradeNo)).toEqual([]);
  }

  it('pays with the parameters a merchant signs (appId given or implied)', async () => {
    const a = await prepay();
    expect((await postPay(sim, requestPayment(a.prepayId))).json.ok).toBe(true);
    const b = await prepay();
    const inApp = { ...requestPayment(b.prepayId), appId: testKeys.appid };
    expect((await postPay(sim, inApp)).json.ok).toBe(true);
    expect(sim.order(b.outTradeNo)?.trade_state).toBe('SUCCESS');
  });

  it('refuses a forged paySign (another key) and one that does not match the parameters', async () => {
    const { prepayId, outTradeNo } = await prepay();
    await refused(outTradeNo, requestPayment(prepayId, { key: platformKey }), 401, 'SIGN_ERROR');
    const good = requestPayment(prepayId);
    await refused(outTradeNo, { ...good, timeStamp: String(Number(good.timeStamp) + 1) }, 401, 'SIGN_ERROR');
    await refused(outTradeNo, { ...good, nonceStr: `${good.nonceStr.slice(1)}x` }, 401, 'SIGN_ERROR');
    await refused(outTradeNo, { ...good, paySign: 'bm90IGEgc2lnbmF0dXJl' }, 401, 'SIGN_ERROR');
    expect((await postPay(sim, good)).status).toBe(200);
  });

  it('refuses a payment in another app, or signed for another appId', async () => {
    const { prepayId, outTradeNo } = await prepay();
    const otherApp = 'wx00000000000000ff';
    // Signed correctly for the other app, but the prepay was made for the simulator's app.
    const inOtherApp = { ...requestPayment(prepayId, { signAppId: otherApp }), appId: otherApp };
    await refused(outTradeNo, inOtherApp, 403, 'APPID_MISMATCH');
    // Paid in the right app, but the server signed with a wrong appId.
    await refused(outTradeNo, requestPayment(prepayId, { signAppId: otherApp }), 401, 'SIGN_ERROR');
    await refused(outTradeNo, { ...requestPayment(prepayId), appId: otherApp }, 403, 'APPID_MISMATCH');
  });

  it('refuses a wrong package: another prepay, a bare prepay_id, an unknown one', async () => {
    const a = await prepay();
    const b = await prepay();
    const forA = requestPayment(a.prepayId);
    await refused(b.outTradeNo, { ...forA, package: `prepay_id=${b.prepayId}` }, 401, 'SIGN_ERROR');
    await refused(a.outTradeNo, { ...forA, package: a.prepayId }, 400, 'PARAM_ERROR');
    expect((await postPay(sim, requestPayment('wx-nope'))).json.code).toBe('PREPAY_NOT_FOUND');
    expect(sim.order(a.outTradeNo)?.trade_state).toBe('NOTPAY');
  });

  it("pays the contract's bare {prepayId} (the cashier's confirmation), once", async () => {
    const { prepayId, outTradeNo } = await prepay();
    expect((await postPay(sim, { prepayId })).json.ok).toBe(true);
    expect(sim.order(outTradeNo)?.trade_state).toBe('SUCCESS');
    expect((await postPay(sim, { prepayId })).json.code).toBe('ORDERPAID');
    expect((await postPay(sim, { prepayId: 'wx-nope' })).json.code).toBe('PREPAY_NOT_FOUND');
  });

  it('refuses a missing field, a numeric timeStamp and signType other than RSA', async () => {
    const { prepayId, outTradeNo } = await prepay();
    const good: PayParams = requestPayment(prepayId);
    await refused(outTradeNo, { ...good, prepayId: 'wx-other' }, 400, 'PARAM_ERROR');
    const { paySign: _omit, ...unsigned } = good;
    await refused(outTradeNo, unsigned, 400, 'PARAM_ERROR');
    await refused(outTradeNo, { ...good, timeStamp: Number(good.timeStamp) }, 400, 'PARAM_ERROR');
    await refused(outTradeNo, { ...good, signType: 'MD5' }, 400, 'SIGN_TYPE_ERROR');
    expect(() =>
      sim.pay({ ...good, paySign: `${good.paySign[0] === 'A' ? 'B' : 'A'}${good.paySign.slice(1)}` }),
    ).toThrow(/支付验证签名失败/);
    // The older body's prepayId may stay beside the parameters when it names the same prepay.
    expect((await postPay(sim, { ...good, prepayId })).json.ok).toBe(true);
  });
});
