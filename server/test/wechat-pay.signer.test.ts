import { createVerify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { payEnvBehindProxy, type CountingProxy } from './helpers/counting-proxy';
import { createSession } from './helpers/fixtures';
import type { PayEnv } from './helpers/pay-env';
import { merchantKey } from '../src/wechat/pay';
import { PaySigner } from '../src/wechat/pay-signer';

/**
 * WeChat Pay v3 has every request signed with the merchant's RSA key, and every prepay's
 * wx.requestPayment parameters too. Until 2026-12-06 the SDK (wechatpay-node-v3) signed them on
 * the event loop (271 µs a signature on this project's VM, two per prepay), with a Math.random
 * nonce and the process's clock. The server now signs them itself (wechat/pay-signer.ts): in
 * the thread pool, with a CSPRNG nonce and the server's clock. Here: what it signs verifies
 * against the merchant certificate, over exactly what WeChat's documentation names.
 */
const keys = 'wechat-sim/test-keys';
const cert = readFileSync(`${__dirname}/../../${keys}/apiclient_cert.pem`);
const verifies = (message: string, signature: string) =>
  createVerify('RSA-SHA256').update(message).verify(cert, signature, 'base64');

/** The fields of a `WECHATPAY2-SHA256-RSA2048 k="v",...` Authorization header. */
function fieldsOf(authorization: string): Record<string, string> {
  expect(authorization.split(' ')[0]).toBe('WECHATPAY2-SHA256-RSA2048');
  return Object.fromEntries([...authorization.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

describe('the signer', () => {
  const nowMs = 1_796_568_821_500;
  const signer = new PaySigner({
    mchid: '1900000001',
    serial: 'ABC123',
    key: merchantKey(`${__dirname}/../../${keys}/apiclient_key.pem`),
    now: () => nowMs,
  });

  it('signs a request over method, path and query, timestamp, nonce and body', async () => {
    const body = '{"mchid":"1900000001","note":"演出"}';
    const a = fieldsOf(
      await signer.authorization('POST', '/v3/pay/transactions/out-trade-no/X1/close', body),
    );
    expect(a).toMatchObject({ mchid: '1900000001', serial_no: 'ABC123', timestamp: '1796568821' });
    expect(a.nonce_str).toMatch(/^[0-9A-F]{32}$/);
    const message = `POST\n/v3/pay/transactions/out-trade-no/X1/close\n1796568821\n${a.nonce_str}\n${body}\n`;
    expect(verifies(message, a.signature!)).toBe(true);
    expect(verifies(message.replace('X1', 'X2'), a.signature!)).toBe(false);

    // A GET's body line is empty; each request has its own nonce.
    const g = fieldsOf(await signer.authorization('GET', '/v3/refund/domestic/refunds/R1', ''));
    expect(
      verifies(`GET\n/v3/refund/domestic/refunds/R1\n1796568821\n${g.nonce_str}\n\n`, g.signature!),
    ).toBe(true);
    expect(g.nonce_str).not.toBe(a.nonce_str);
  });

  it('signs the wx.requestPayment parameters of a prepay', async () => {
    const p = await signer.payParams('wx0000000000000001', 'wx201410272009395522657a690389285100');
    expect(p).toMatchObject({
      timeStamp: '1796568821',
      package: 'prepay_id=wx201410272009395522657a690389285100',
      signType: 'RSA',
    });
    expect(p.nonceStr).toMatch(/^[0-9A-F]{32}$/);
    expect(verifies(`wx0000000000000001\n${p.timeStamp}\n${p.nonceStr}\n${p.package}\n`, p.paySign)).toBe(
      true,
    );
  });
});

describe('a prepay through the server', () => {
  let p: PayEnv;
  let proxy: CountingProxy;
  let close: () => Promise<void>;
  beforeAll(async () => ({ p, proxy, close } = await payEnvBehindProxy()));
  afterAll(() => close());

  it('is signed with the server clock and a CSPRNG nonce, and WeChat accepts it', async () => {
    const s = await createSession(p.deps, { seats: 1 });
    // Two minutes ahead of the process clock: WeChat allows five minutes of skew.
    p.clock.advance(120_000);
    const { payParams } = await p.orderAndPrepay('openid-signer', {
      sessionId: s.sessionId,
      seatIds: s.seatIds,
    });

    const jsapi = proxy.seen.find((r) => r.path === '/v3/pay/transactions/jsapi');
    const a = fieldsOf(jsapi!.authorization);
    expect(a.timestamp).toBe(String(Math.floor(p.clock.now().getTime() / 1000)));
    expect(a.nonce_str).toMatch(/^[0-9A-F]{32}$/);
    expect(payParams.timeStamp).toBe(a.timestamp);
    const message = [p.config.wechat.appid, payParams.timeStamp, payParams.nonceStr, payParams.package, ''];
    expect(verifies(message.join('\n'), payParams.paySign)).toBe(true);
    // The simulator checks the Authorization as WeChat does, and takes the payment.
    expect(p.sim.pay(payParams)).toMatchObject({ ok: true });
  });
});
