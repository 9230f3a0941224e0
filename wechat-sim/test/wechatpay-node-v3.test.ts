import crypto from 'node:crypto';
import fs from 'node:fs';
import Pay from 'wechatpay-node-v3';
import { startSimulator, Simulator, testKeys } from '../src';
import { BaseUrlHttp, WECHATPAY_BASE } from './sdk-http';
import {
  headerGetter,
  startReceiver,
  Receiver,
  tradeNo,
  trustedKeys,
  verifyWechatSignature,
} from './helpers';

/** The SDK's static, process-wide certificate map used by verifySign (protected in its typings). */
const sdkCertificates = (Pay as unknown as { certificates: Record<string, string> }).certificates;

function newPay(sim: Simulator): Pay {
  const pay = new Pay({
    appid: testKeys.appid,
    mchid: testKeys.mchid,
    // Pass serial_no: without it the SDK parses publicKey with @fidm/x509 and gets a lower-case serial.
    serial_no: testKeys.merchantSerial,
    publicKey: fs.readFileSync(testKeys.merchantCertPath),
    privateKey: fs.readFileSync(testKeys.merchantPrivateKeyPath),
    key: testKeys.apiV3Key,
  });
  pay.createHttp(new BaseUrlHttp(sim.url, trustedKeys));
  return pay;
}

describe.each(['certificate', 'publicKey'] as const)(
  'wechatpay-node-v3 2.2.1 against the simulator (%s mode)',
  (keyMode) => {
    let sim: Simulator;
    let pay: Pay;
    let receiver: Receiver;
    const today = new Date(Date.now() + 8 * 3600 * 1000).toISOString().slice(0, 10);

    beforeAll(async () => {
      sim = await startSimulator({ keyMode, refundDelayMs: 20, notifyRetryScale: 0.001 });
      receiver = await startReceiver();
      pay = newPay(sim);
    });
    afterAll(async () => {
      await sim.close();
      await receiver.close();
    });

    async function jsapi(outTradeNo: string) {
      return pay.transactions_jsapi({
        description: '测试演出-看台票',
        out_trade_no: outTradeNo,
        notify_url: receiver.url,
        amount: { total: 8800, currency: 'CNY' },
        payer: { openid: 'oSdkUser0000000000000000000A' },
      });
    }

    it('creates a JSAPI prepay (the SDK returns signed wx.requestPayment params)', async () => {
      const res = await jsapi(tradeNo('S'));
      expect(res.status).toBe(200);
      const params = res.data as {
        appId: string;
        timeStamp: string;
        nonceStr: string;
        package: string;
        paySign: string;
        signType: string;
      };
      expect(params.package).toMatch(/^prepay_id=wx\d{14}[0-9a-f]{20}$/);
      expect(params.signType).toBe('RSA');
      const message = `${params.appId}\n${params.timeStamp}\n${params.nonceStr}\n${params.package}\n`;
      const merchantCert = new crypto.X509Certificate(fs.readFileSync(testKeys.merchantCertPath));
      expect(
        crypto.verify(
          'RSA-SHA256',
          Buffer.from(message),
          merchantCert.publicKey,
          Buffer.from(params.paySign, 'base64'),
        ),
      ).toBe(true);
    });

    it('queries, closes, refunds, queries the refund and downloads the bill', async () => {
      const outTradeNo = tradeNo('S');
      const created = await jsapi(outTradeNo);
      expect((await pay.query({ out_trade_no: outTradeNo })).data.trade_state).toBe('NOTPAY');

      // The mini-program passes the SDK's parameters to wx.requestPayment as they are.
      const { transactionId } = sim.pay(created.data);
      const paid = await pay.query({ out_trade_no: outTradeNo });
      expect(paid.data).toMatchObject({
        trade_state: 'SUCCESS',
        transaction_id: transactionId,
        amount: { total: 8800 },
      });
      expect((await pay.query({ transaction_id: transactionId })).data.out_trade_no).toBe(outTradeNo);

      const refused = await pay.close(outTradeNo);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.error)).toEqual({ code: 'ORDERPAID', message: '订单已支付' });

      const other = tradeNo('S');
      await jsapi(other);
      expect((await pay.close(other)).status).toBe(204);
      expect((await pay.query({ out_trade_no: other })).data.trade_state).toBe('CLOSED');

      const outRefundNo = tradeNo('R');
      const refund = await pay.refunds({
        out_trade_no: outTradeNo,
        out_refund_no: outRefundNo,
        reason: '演出取消',
        notify_url: receiver.url,
        amount: { refund: 8800, total: 8800, currency: 'CNY' },
      });
      expect(refund.status).toBe(200);
      expect(refund.data).toMatchObject({ out_refund_no: outRefundNo, status: 'PROCESSING' });
      await sim.waitFor(() => sim.refund(outRefundNo)?.status === 'SUCCESS');
      expect((await pay.find_refunds(outRefundNo)).data?.status).toBe('SUCCESS');

      const bill = await pay.tradebill({ bill_date: today, bill_type: 'ALL' });
      expect(bill.status).toBe(200);
      // downloadBill signs the URL minus the hard-coded WeChat origin, so hand it a WeChat-origin URL.
      const url = (bill.data.download_url as string).replace(sim.url, WECHATPAY_BASE);
      const file = await pay.downloadBill(url);
      expect(file.status).toBe(200);
      expect(
        crypto
          .createHash('sha1')
          .update(file.data as string)
          .digest('hex'),
      ).toBe(bill.data.hash_value);
      expect(file.data as string).toContain(`\`${outRefundNo}`);
    });

    it('verifySign works on notifications once the keys are preloaded; decipher_gcm does not check the tag', async () => {
      // Preload both modes: an unknown serial would make the SDK fetch /v3/certificates on every call.
      sdkCertificates[testKeys.platformSerial] = fs.readFileSync(testKeys.platformCertPath, 'utf8');
      sdkCertificates[testKeys.publicKeyId] = fs.readFileSync(testKeys.publicKeyPath, 'utf8');
      const got = await sim.waitFor(() =>
        receiver.received.find((r) => r.body.includes('TRANSACTION.SUCCESS')),
      );
      const h = headerGetter(got.headers);
      const verify = (body: string, signature = h.get('wechatpay-signature') as string) =>
        pay.verifySign({
          timestamp: h.get('wechatpay-timestamp') as string,
          nonce: h.get('wechatpay-nonce') as string,
          serial: h.get('wechatpay-serial') as string,
          signature,
          body, // the raw body string, never a re-serialised object
        });
      expect(await verify(got.body)).toBe(true);
      expect(await verify(`${got.body} `)).toBe(false);
      expect(await verify(got.body, `WECHATPAY/SIGNTEST/${h.get('wechatpay-signature')}`)).toBe(false);
      expect(verifyWechatSignature(h, got.body)).toBe(true);

      const { resource } = JSON.parse(got.body);
      const plain = pay.decipher_gcm<{ trade_state: string }>(
        resource.ciphertext,
        resource.associated_data,
        resource.nonce,
      );
      expect(plain.trade_state).toBe('SUCCESS');
      // Defect: a forged tag is accepted (decipher.final() is never called) -> decrypt with node:crypto instead.
      const forged = Buffer.from(resource.ciphertext, 'base64');
      forged[forged.length - 1] ^= 0xff;
      const accepted = pay.decipher_gcm<{ trade_state: string }>(
        forged.toString('base64'),
        resource.associated_data,
        resource.nonce,
      );
      expect(accepted.trade_state).toBe('SUCCESS');
    });
  },
);

describe('wechatpay-node-v3 fetches platform certificates from the simulator', () => {
  it('bootstraps Pay.certificates through /v3/certificates in certificate mode', async () => {
    const sim = await startSimulator({ keyMode: 'certificate' });
    try {
      const pay = newPay(sim);
      const certs = await pay.get_certificates(testKeys.apiV3Key);
      expect(certs[0].serial_no).toBe(testKeys.platformSerial);
      const expected = new crypto.X509Certificate(fs.readFileSync(testKeys.platformCertPath)).publicKey;
      expect(crypto.createPublicKey(certs[0].publicKey as string).equals(expected)).toBe(true);
    } finally {
      await sim.close();
    }
  });
});
