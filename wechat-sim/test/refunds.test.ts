import { MAX_REFUNDS_PER_PAYMENT, startSimulator, Simulator, testKeys } from '../src';
import {
  decryptResource,
  headerGetter,
  jsapiBody,
  startReceiver,
  Receiver,
  requestPayment,
  tradeNo,
  verifyWechatSignature,
  wxRequest,
} from './helpers';

const REFUNDS = '/v3/refund/domestic/refunds';

describe('refunds', () => {
  let sim: Simulator;
  let receiver: Receiver;

  beforeAll(async () => {
    sim = await startSimulator({ notifyRetryScale: 0.001, refundDelayMs: 30 });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await sim.close();
    await receiver.close();
  });
  afterEach(() => sim.resetFaults());

  async function paid(total = 1000) {
    const body = jsapiBody(receiver.url, { amount: { total, currency: 'CNY' } });
    const { json } = await wxRequest(sim.url, 'POST', '/v3/pay/transactions/jsapi', body);
    return {
      outTradeNo: body.out_trade_no,
      transactionId: sim.pay(requestPayment(json.prepay_id)).transactionId,
    };
  }

  const refundBody = (
    outTradeNo: string,
    refund: number,
    total = 1000,
    extra: Record<string, unknown> = {},
  ) => ({
    out_trade_no: outTradeNo,
    out_refund_no: tradeNo('R'),
    reason: '演出取消',
    notify_url: receiver.url,
    amount: { refund, total, currency: 'CNY' },
    ...extra,
  });

  it('accepts a refund as PROCESSING, completes it, and sends REFUND.SUCCESS', async () => {
    const { outTradeNo, transactionId } = await paid();
    const req = refundBody(outTradeNo, 400);
    const created = await wxRequest(sim.url, 'POST', REFUNDS, req);
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({
      refund_id: expect.stringMatching(/^50\d{27}$/),
      out_refund_no: req.out_refund_no,
      transaction_id: transactionId,
      out_trade_no: outTradeNo,
      channel: 'ORIGINAL',
      status: 'PROCESSING',
      amount: { total: 1000, refund: 400, payer_total: 1000, payer_refund: 400, currency: 'CNY' },
    });
    expect(verifyWechatSignature(created.headers, created.text)).toBe(true);

    const got = await sim.waitFor(() => receiver.received.find((r) => r.body.includes('REFUND.SUCCESS')));
    expect(verifyWechatSignature(headerGetter(got.headers), got.body)).toBe(true);
    const envelope = JSON.parse(got.body);
    expect(envelope.resource).toMatchObject({ original_type: 'refund', associated_data: 'refund' });
    expect(decryptResource(envelope.resource)).toMatchObject({
      mchid: testKeys.mchid,
      out_trade_no: outTradeNo,
      transaction_id: transactionId,
      out_refund_no: req.out_refund_no,
      refund_id: created.json.refund_id,
      refund_status: 'SUCCESS',
      success_time: expect.stringMatching(/\+08:00$/),
      amount: { total: 1000, refund: 400, payer_total: 1000, payer_refund: 400 },
    });

    const query = await wxRequest(sim.url, 'GET', `${REFUNDS}/${req.out_refund_no}`);
    expect(query.json).toMatchObject({ status: 'SUCCESS', success_time: expect.any(String) });
    const order = await wxRequest(
      sim.url,
      'GET',
      `/v3/pay/transactions/out-trade-no/${outTradeNo}?mchid=${testKeys.mchid}`,
    );
    expect(order.json.trade_state).toBe('REFUND');
  });

  it('is idempotent per out_refund_no and refuses a conflicting reuse', async () => {
    const { outTradeNo } = await paid();
    const req = refundBody(outTradeNo, 300);
    const a = await wxRequest(sim.url, 'POST', REFUNDS, req);
    const b = await wxRequest(sim.url, 'POST', REFUNDS, req);
    expect(b.json.refund_id).toBe(a.json.refund_id);
    const conflict = await wxRequest(sim.url, 'POST', REFUNDS, {
      ...req,
      amount: { ...req.amount, refund: 301 },
    });
    expect(conflict.status).toBe(400);
    expect(conflict.json.code).toBe('INVALID_REQUEST');
    expect(sim.refunds().filter((r) => r.out_trade_no === outTradeNo)).toHaveLength(1);
  });

  it('never refunds more than was paid', async () => {
    const { outTradeNo } = await paid();
    expect((await wxRequest(sim.url, 'POST', REFUNDS, refundBody(outTradeNo, 600))).status).toBe(200);
    const over = await wxRequest(sim.url, 'POST', REFUNDS, refundBody(outTradeNo, 401));
    expect(over.status).toBe(400);
    expect(over.json.code).toBe('INVALID_REQUEST');
    expect((await wxRequest(sim.url, 'POST', REFUNDS, refundBody(outTradeNo, 400))).status).toBe(200);
    const full = await wxRequest(sim.url, 'POST', REFUNDS, refundBody(outTradeNo, 1));
    expect(full.json).toEqual({ code: 'INVALID_REQUEST', message: '订单已全额退款' });
    const wrongTotal = await wxRequest(sim.url, 'POST', REFUNDS, refundBody(outTradeNo, 1, 999));
    expect(wrongTotal.status).toBe(400);
  });

  it(`allows at most ${MAX_REFUNDS_PER_PAYMENT} refunds per payment`, async () => {
    const { transactionId } = await paid(100);
    for (let i = 0; i < MAX_REFUNDS_PER_PAYMENT; i++) {
      const res = await wxRequest(sim.url, 'POST', REFUNDS, {
        ...refundBody('', 1, 100, { notify_url: undefined }),
        out_trade_no: undefined,
        transaction_id: transactionId,
      });
      expect(res.status).toBe(200);
    }
    const res = await wxRequest(sim.url, 'POST', REFUNDS, {
      ...refundBody('', 1, 100),
      out_trade_no: undefined,
      transaction_id: transactionId,
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('INVALID_REQUEST');
  });

  it('refuses unknown, unpaid orders and NOT_ENOUGH balance', async () => {
    const unknown = await wxRequest(sim.url, 'POST', REFUNDS, refundBody('nosuchorder', 1));
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe('RESOURCE_NOT_EXISTS');
    const body = jsapiBody(receiver.url, { amount: { total: 1000, currency: 'CNY' } });
    await wxRequest(sim.url, 'POST', '/v3/pay/transactions/jsapi', body);
    expect((await wxRequest(sim.url, 'POST', REFUNDS, refundBody(body.out_trade_no, 1))).status).toBe(400);
    const { outTradeNo } = await paid();
    sim.setFaults({ refundNotEnough: true });
    const poor = await wxRequest(sim.url, 'POST', REFUNDS, refundBody(outTradeNo, 1));
    expect(poor.status).toBe(403);
    expect(poor.json.code).toBe('NOT_ENOUGH');
    const missing = await wxRequest(sim.url, 'GET', `${REFUNDS}/nosuchrefund`);
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe('RESOURCE_NOT_EXISTS');
  });

  it.each([
    ['ABNORMAL', 'REFUND.ABNORMAL'],
    ['CLOSED', 'REFUND.CLOSED'],
  ] as const)('refundOutcome %s ends the refund so and notifies %s', async (outcome, event) => {
    const { outTradeNo } = await paid();
    sim.setFaults({ refundOutcome: outcome });
    const req = refundBody(outTradeNo, 1000);
    await wxRequest(sim.url, 'POST', REFUNDS, req);
    const got = await sim.waitFor(() => receiver.received.find((r) => r.body.includes(event)));
    const plain = decryptResource(JSON.parse(got.body).resource);
    expect(plain).toMatchObject({ out_refund_no: req.out_refund_no, refund_status: outcome });
    expect(plain.success_time).toBeUndefined();
    expect((await wxRequest(sim.url, 'GET', `${REFUNDS}/${req.out_refund_no}`)).json.status).toBe(outcome);
    // A closed refund gives the amount back; an abnormal one still holds it.
    const again = await wxRequest(sim.url, 'POST', REFUNDS, refundBody(outTradeNo, 1000));
    expect(again.status).toBe(outcome === 'CLOSED' ? 200 : 400);
  });

  it('retries an ABNORMAL refund through apply-abnormal-refund', async () => {
    const { outTradeNo } = await paid();
    sim.setFaults({ refundOutcome: 'ABNORMAL' });
    const req = refundBody(outTradeNo, 500);
    const created = await wxRequest(sim.url, 'POST', REFUNDS, req);
    await sim.waitFor(() => sim.refund(req.out_refund_no)?.status === 'ABNORMAL');
    const retried = await wxRequest(
      sim.url,
      'POST',
      `${REFUNDS}/${created.json.refund_id}/apply-abnormal-refund`,
      {
        out_refund_no: req.out_refund_no,
        type: 'USER_BANK_CARD',
      },
    );
    expect(retried.json.status).toBe('PROCESSING');
    await sim.waitFor(() => sim.refund(req.out_refund_no)?.status === 'SUCCESS');
  });
});
