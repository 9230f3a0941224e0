import { generateKeyPairSync } from 'node:crypto';
import { startSimulator, Simulator, testKeys } from '../src';
import { authorization, jsapiBody, verifyWechatSignature, wxRequest } from './helpers';

describe('merchant request signatures (Authorization: WECHATPAY2-SHA256-RSA2048)', () => {
  let sim: Simulator;
  const query = (no: string) => `/v3/pay/transactions/out-trade-no/${no}?mchid=${testKeys.mchid}`;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(() => sim.close());

  it('accepts a correctly signed request', async () => {
    const res = await wxRequest(
      sim.url,
      'POST',
      '/v3/pay/transactions/jsapi',
      jsapiBody('http://127.0.0.1:9/n'),
    );
    expect(res.status).toBe(200);
    expect(res.json.prepay_id).toMatch(/^wx\d{14}[0-9a-f]{20}$/);
  });

  it('rejects a bad signature, a stale timestamp, a wrong mchid or serial, a missing header', async () => {
    const body = jsapiBody('http://127.0.0.1:9/n');
    const tampered = await wxRequest(sim.url, 'POST', '/v3/pay/transactions/jsapi', body, {
      sendBody: JSON.stringify({ ...body, amount: { total: 1, currency: 'CNY' } }),
    });
    const stale = await wxRequest(sim.url, 'GET', query('x123456'), undefined, {
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    const future = await wxRequest(sim.url, 'GET', query('x123456'), undefined, {
      timestamp: Math.floor(Date.now() / 1000) + 400,
    });
    const mchid = await wxRequest(sim.url, 'GET', query('x123456'), undefined, { mchid: '1900000999' });
    const serial = await wxRequest(sim.url, 'GET', query('x123456'), undefined, { serial: '1234ABCD' });
    const missing = await wxRequest(sim.url, 'GET', query('x123456'), undefined, { authorization: null });
    const wrongKey = await wxRequest(sim.url, 'GET', query('x123456'), undefined, {
      key: generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString(),
    });
    for (const res of [tampered, stale, future, mchid, serial, missing, wrongKey]) {
      expect(res.status).toBe(401);
      expect(res.json.code).toBe('SIGN_ERROR');
      expect(typeof res.json.message).toBe('string');
      // Even errors carry a valid WeChat signature.
      expect(verifyWechatSignature(res.headers, res.text)).toBe(true);
    }
  });

  it('signs the path and query exactly as sent', async () => {
    const signedFor = authorization('GET', query('x123456'), '');
    const res = await wxRequest(sim.url, 'GET', `${query('x123456')}&extra=1`, undefined, {
      authorization: signedFor,
    });
    expect(res.status).toBe(401);
  });

  it('accepts a timestamp within five minutes', async () => {
    const res = await wxRequest(sim.url, 'GET', query('nothere1'), undefined, {
      timestamp: Math.floor(Date.now() / 1000) - 290,
    });
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('ORDER_NOT_EXIST');
  });

  it('answers failNextRequests with 500 SYSTEM_ERROR, then recovers', async () => {
    sim.setFaults({ failNextRequests: 2 });
    const a = await wxRequest(sim.url, 'GET', query('nothere2'));
    const b = await wxRequest(sim.url, 'GET', query('nothere2'));
    const c = await wxRequest(sim.url, 'GET', query('nothere2'));
    expect([a.status, b.status, c.status]).toEqual([500, 500, 404]);
    expect(a.json).toEqual({ code: 'SYSTEM_ERROR', message: '系统错误' });
    expect(sim.faults().failNextRequests).toBe(0);
  });
});

describe.each([
  ['certificate', testKeys.platformSerial],
  ['publicKey', testKeys.publicKeyId],
] as const)('response signatures in %s mode', (keyMode, serial) => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ keyMode });
  });
  afterAll(() => sim.close());

  it('signs success, error and 204 responses with the expected key', async () => {
    const order = jsapiBody('http://127.0.0.1:9/n');
    const created = await wxRequest(sim.url, 'POST', '/v3/pay/transactions/jsapi', order);
    const missing = await wxRequest(
      sim.url,
      'GET',
      `/v3/pay/transactions/out-trade-no/zzzzzzz?mchid=${testKeys.mchid}`,
    );
    const closed = await wxRequest(
      sim.url,
      'POST',
      `/v3/pay/transactions/out-trade-no/${order.out_trade_no}/close`,
      {
        mchid: testKeys.mchid,
      },
    );
    expect([created.status, missing.status, closed.status]).toEqual([200, 404, 204]);
    for (const res of [created, missing, closed]) {
      expect(res.headers.get('wechatpay-serial')).toBe(serial);
      expect(res.headers.get('wechatpay-timestamp')).toMatch(/^\d{10}$/);
      expect(res.headers.get('wechatpay-nonce')).toBeTruthy();
      expect(res.headers.get('request-id')).toBeTruthy();
      expect(verifyWechatSignature(res.headers, res.text)).toBe(true);
      // A tampered body must not verify.
      expect(verifyWechatSignature(res.headers, `${res.text} `)).toBe(false);
    }
    expect(serial.startsWith('PUB_KEY_ID_')).toBe(keyMode === 'publicKey');
  });
});

describe('mixed key mode', () => {
  it('signs with both keys, each verifiable', async () => {
    const sim = await startSimulator({ keyMode: 'mixed' });
    try {
      const serials = new Set<string>();
      for (let i = 0; i < 24 && serials.size < 2; i++) {
        const res = await wxRequest(
          sim.url,
          'GET',
          `/v3/pay/transactions/out-trade-no/none${i}xx?mchid=${testKeys.mchid}`,
        );
        expect(verifyWechatSignature(res.headers, res.text)).toBe(true);
        serials.add(res.headers.get('wechatpay-serial') as string);
      }
      expect([...serials].sort()).toEqual([testKeys.platformSerial, testKeys.publicKeyId].sort());
    } finally {
      await sim.close();
    }
  });
});
