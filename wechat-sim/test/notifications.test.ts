import { RETRY_SCHEDULE_SECONDS, startSimulator, Simulator, testKeys } from '../src';
import {
  decryptResource,
  headerGetter,
  jsapiBody,
  Received,
  startReceiver,
  Receiver,
  requestPayment,
  verifyWechatSignature,
  wxRequest,
  withSimAndReceiver,
} from './helpers';

async function paidOrder(sim: Simulator, notifyUrl: string, overrides: Record<string, unknown> = {}) {
  const body = jsapiBody(notifyUrl, overrides);
  const { json } = await wxRequest(sim.url, 'POST', '/v3/pay/transactions/jsapi', body);
  const result = sim.pay(requestPayment(json.prepay_id));
  return { body, transactionId: result.transactionId };
}

const verifies = (r: Received) => verifyWechatSignature(headerGetter(r.headers), r.body);

describe.each(['certificate', 'publicKey'] as const)(
  'TRANSACTION.SUCCESS notification (%s mode)',
  (keyMode) => {
    let sim: Simulator;
    let receiver: Receiver;
    beforeAll(async () => {
      sim = await startSimulator({ keyMode, notifyRetryScale: 0.001 });
      receiver = await startReceiver();
    });
    afterAll(async () => {
      await sim.close();
      await receiver.close();
    });

    it('is a signed v3 envelope whose resource decrypts to the transaction', async () => {
      const { body, transactionId } = await paidOrder(sim, receiver.url);
      const got = await sim.waitFor(() =>
        receiver.received.find((r) => r.body.includes('TRANSACTION.SUCCESS')),
      );
      const h = got.headers;
      expect(h['wechatpay-serial']).toBe(
        keyMode === 'certificate' ? testKeys.platformSerial : testKeys.publicKeyId,
      );
      expect(h['wechatpay-signature-type']).toBe('WECHATPAY2-SHA256-RSA2048');
      expect(Math.abs(Number(h['wechatpay-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
      expect(h['content-type']).toBe('application/json');
      expect(verifies(got)).toBe(true);

      const envelope = JSON.parse(got.body);
      expect(Object.keys(envelope)).toEqual([
        'id',
        'create_time',
        'resource_type',
        'event_type',
        'summary',
        'resource',
      ]);
      expect(envelope).toMatchObject({
        resource_type: 'encrypt-resource',
        event_type: 'TRANSACTION.SUCCESS',
        summary: '支付成功',
        resource: {
          original_type: 'transaction',
          algorithm: 'AEAD_AES_256_GCM',
          associated_data: 'transaction',
        },
      });
      expect(envelope.resource.nonce).toMatch(/^[A-Za-z0-9]{12}$/);
      expect(decryptResource(envelope.resource)).toMatchObject({
        mchid: testKeys.mchid,
        appid: testKeys.appid,
        out_trade_no: body.out_trade_no,
        transaction_id: transactionId,
        trade_type: 'JSAPI',
        trade_state: 'SUCCESS',
        payer: { openid: body.payer.openid },
        amount: { total: 1234, payer_total: 1234, currency: 'CNY', payer_currency: 'CNY' },
      });
      await sim.waitFor(
        () => sim.notifications().find((n) => n.out_trade_no === body.out_trade_no)?.state === 'delivered',
      );
    });

    it('fails AES-GCM authentication when one ciphertext byte or the associated data is changed', async () => {
      const got = receiver.received[0];
      const { resource } = JSON.parse(got.body);
      const bytes = Buffer.from(resource.ciphertext, 'base64');
      bytes[3] ^= 0x01;
      expect(() => decryptResource({ ...resource, ciphertext: bytes.toString('base64') })).toThrow();
      expect(() => decryptResource({ ...resource, associated_data: 'refund' })).toThrow();
      expect(() => decryptResource(resource, 'x'.repeat(32))).toThrow();
      expect(decryptResource(resource).trade_state).toBe('SUCCESS');
    });
  },
);

describe('delivery, retries and faults', () => {
  let sim: Simulator;
  let receiver: Receiver;
  withSimAndReceiver((s, r) => ((sim = s), (receiver = r)), true);

  it('retries on the scaled WeChat schedule until the merchant answers 204, then stops', async () => {
    let calls = 0;
    receiver.reply = () => (++calls <= 4 ? 500 : 204);
    const { body } = await paidOrder(sim, receiver.url);
    const record = await sim.waitFor(() => {
      const n = sim.notifications().find((x) => x.out_trade_no === body.out_trade_no);
      return n?.state === 'delivered' && n;
    });
    expect(record.attempts.map((a) => a.status)).toEqual([500, 500, 500, 500, 204]);
    // Gaps follow 15s, 15s, 30s, 3m scaled by 0.001 (15, 15, 30, 180 ms).
    const times = receiver.received.map((r) => r.at);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    RETRY_SCHEDULE_SECONDS.slice(0, 4).forEach((s, i) => expect(gaps[i]).toBeGreaterThanOrEqual(s - 2));
    expect(gaps[3]).toBeLessThan(2000);
    // All attempts carry the same body (same id), each freshly and validly signed.
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect(receiver.received.every(verifies)).toBe(true);
    await new Promise((r) => setTimeout(r, 700)); // the next retry would be at 600 ms
    expect(receiver.received).toHaveLength(5);
  });

  it('ends delivery on 200 too; retries a refused connection', async () => {
    receiver.reply = () => 200;
    const { body } = await paidOrder(sim, receiver.url);
    const ok = await sim.waitFor(() =>
      sim.notifications().find((n) => n.out_trade_no === body.out_trade_no && n.state === 'delivered'),
    );
    expect(ok.attempts).toHaveLength(1);

    const refused = await paidOrder(sim, 'http://127.0.0.1:9/refused');
    const rec = await sim.waitFor(() => {
      const n = sim.notifications().find((x) => x.out_trade_no === refused.body.out_trade_no);
      return n && n.attempts.length >= 3 && n;
    });
    expect(rec.attempts.every((a) => a.status === 0 && a.error)).toBe(true);
  });

  it('gives up after the 15 retries of the schedule', async () => {
    const s = await startSimulator({ notifyRetryScale: 0.00002 });
    try {
      receiver.reply = () => 503;
      const { body } = await paidOrder(s, receiver.url);
      const rec = await s.waitFor(() => {
        const n = s.notifications().find((x) => x.out_trade_no === body.out_trade_no);
        return n?.state === 'failed' && n;
      }, 10000);
      expect(rec.attempts).toHaveLength(1 + RETRY_SCHEDULE_SECONDS.length);
    } finally {
      await s.close();
    }
  });

  it('times out a slow merchant after notifyTimeoutMs and retries', async () => {
    const s = await startSimulator({ notifyRetryScale: 0.001, notifyTimeoutMs: 200 });
    try {
      let calls = 0;
      receiver.reply = () => (++calls === 1 ? new Promise((r) => setTimeout(() => r(204), 600)) : 204);
      const { body } = await paidOrder(s, receiver.url);
      const rec = await s.waitFor(() => {
        const n = s.notifications().find((x) => x.out_trade_no === body.out_trade_no);
        return n?.state === 'delivered' && n;
      });
      expect(rec.attempts[0].status).toBe(0);
      expect(rec.attempts[0].error).toMatch(/timeout/);
      expect(rec.attempts[1].status).toBe(204);
    } finally {
      await s.close();
      await new Promise((r) => setTimeout(r, 650)); // let the slow handler finish
    }
  });

  it('duplicate: n concurrent copies of the same notification', async () => {
    sim.setFaults({ duplicate: 3 });
    await paidOrder(sim, receiver.url);
    await sim.waitFor(() => receiver.received.length === 3);
    expect(new Set(receiver.received.map((r) => JSON.parse(r.body).id)).size).toBe(1);
    expect(receiver.received.every(verifies)).toBe(true);
  });

  it('drop: no delivery, but the query still shows the payment', async () => {
    sim.setFaults({ drop: true });
    const { body } = await paidOrder(sim, receiver.url);
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.received).toHaveLength(0);
    expect(sim.notifications().at(-1)?.state).toBe('dropped');
    const q = await wxRequest(
      sim.url,
      'GET',
      `/v3/pay/transactions/out-trade-no/${body.out_trade_no}?mchid=${testKeys.mchid}`,
    );
    expect(q.json.trade_state).toBe('SUCCESS');
  });

  it('wrongAmount: the notified amount differs from the order', async () => {
    sim.setFaults({ wrongAmount: 100 });
    await paidOrder(sim, receiver.url);
    const got = await sim.waitFor(() => receiver.received[0]);
    expect(verifies(got)).toBe(true);
    expect(decryptResource(JSON.parse(got.body).resource).amount).toMatchObject({
      total: 1334,
      payer_total: 1334,
    });
  });

  it('signtest: a WECHATPAY/SIGNTEST/ probe precedes the real notification and must not verify', async () => {
    sim.setFaults({ signtest: true });
    receiver.reply = (r) => (verifies(r) ? 204 : 401);
    await paidOrder(sim, receiver.url);
    await sim.waitFor(() => receiver.received.length === 2);
    const [probe, real] = receiver.received;
    expect(probe.headers['wechatpay-signature']).toMatch(/^WECHATPAY\/SIGNTEST\//);
    expect(verifies(probe)).toBe(false);
    expect(verifies(real)).toBe(true);
    const kinds = sim.notifications().map((n) => [n.kind, n.attempts[0]?.status]);
    expect(kinds).toEqual([
      ['transaction', 204],
      ['signtest', 401],
    ]);
  });

  it('delayMs and outOfOrder: a batch arrives late and newest first', async () => {
    sim.setFaults({ outOfOrder: 2, delayMs: 50 });
    const first = await paidOrder(sim, receiver.url);
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.received).toHaveLength(0);
    const second = await paidOrder(sim, receiver.url);
    await sim.waitFor(() => receiver.received.length === 2);
    const order = receiver.received.map((r) => decryptResource(JSON.parse(r.body).resource).out_trade_no);
    expect(order).toEqual([second.body.out_trade_no, first.body.out_trade_no]);
  });

  it('turning outOfOrder off flushes what was held', async () => {
    sim.setFaults({ outOfOrder: 5 });
    await paidOrder(sim, receiver.url);
    expect(sim.notifications()[0].state).toBe('held');
    sim.resetFaults();
    await sim.waitFor(() => receiver.received.length === 1);
  });

  it('sends raw notifications for replay and tampering tests', async () => {
    const { body } = await paidOrder(sim, receiver.url);
    await sim.waitFor(() => receiver.received.length === 1);
    receiver.reply = (r) => (verifies(r) ? 204 : 401);

    const replay = await sim.sendRawNotification({ outTradeNo: body.out_trade_no, replayLast: true });
    expect(replay.status).toBe(204);
    expect(replay.sentBody).toBe(receiver.received[0].body);

    const stale = await sim.sendRawNotification({
      outTradeNo: body.out_trade_no,
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect(stale.headers['Wechatpay-Timestamp']).toBe(String(Math.floor(Date.now() / 1000) - 600));

    const forged = await sim.sendRawNotification({ outTradeNo: body.out_trade_no, signature: 'Zm9yZ2Vk' });
    expect(forged.status).toBe(401);

    const notPaid = await sim.sendRawNotification({
      outTradeNo: body.out_trade_no,
      resource: { trade_state: 'NOTPAY' },
    });
    expect(decryptResource(JSON.parse(notPaid.sentBody).resource).trade_state).toBe('NOTPAY');

    const viaHttp = await fetch(`${sim.url}/sim/notify`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ outTradeNo: body.out_trade_no, mode: 'publicKey' }),
    }).then((r) => r.json() as Promise<any>);
    expect(viaHttp.status).toBe(204);
    expect(viaHttp.headers['Wechatpay-Serial']).toBe(testKeys.publicKeyId);
  });
});
