/**
 * Test-side WeChat Pay merchant helpers written against node:crypto only, independently of the
 * simulator's code, so the tests check the wire protocol rather than the simulator against itself.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { paySignMessage, startSimulator, testKeys, type RequestPaymentParams, type Simulator } from '../src';

export const merchantKey = fs.readFileSync(testKeys.merchantPrivateKeyPath, 'utf8');
export const platformCert = fs.readFileSync(testKeys.platformCertPath, 'utf8');
export const wechatPublicKey = fs.readFileSync(testKeys.publicKeyPath, 'utf8');
/** Not the merchant's key: what a forger might sign with. */
export const platformKey = fs.readFileSync(testKeys.platformPrivateKeyPath, 'utf8');

/** What the merchant trusts: serial -> public key (both modes, as during a switch). */
export const trustedKeys: Record<string, crypto.KeyObject> = {
  [testKeys.platformSerial]: new crypto.X509Certificate(platformCert).publicKey,
  [testKeys.publicKeyId]: crypto.createPublicKey(wechatPublicKey),
};

export interface SignedRequestOptions {
  timestamp?: number;
  mchid?: string;
  serial?: string;
  key?: string;
  /** Sign this body but send another one. */
  sendBody?: string;
  authorization?: string | null;
}

export interface WxResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export function authorization(
  method: string,
  url: string,
  body: string,
  o: SignedRequestOptions = {},
): string {
  const timestamp = String(o.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = crypto.randomBytes(16).toString('hex');
  const message = `${method}\n${url}\n${timestamp}\n${nonce}\n${body}\n`;
  const signature = crypto
    .createSign('RSA-SHA256')
    .update(message)
    .sign(o.key ?? merchantKey, 'base64');
  return (
    `WECHATPAY2-SHA256-RSA2048 mchid="${o.mchid ?? testKeys.mchid}",nonce_str="${nonce}",` +
    `signature="${signature}",timestamp="${timestamp}",serial_no="${o.serial ?? testKeys.merchantSerial}"`
  );
}

/** A signed merchant API call (url = path + query). */
export async function wxRequest(
  baseUrl: string,
  method: string,
  url: string,
  payload?: unknown,
  o: SignedRequestOptions = {},
): Promise<WxResponse> {
  const body = payload === undefined ? '' : JSON.stringify(payload);
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json' };
  const auth = o.authorization === undefined ? authorization(method, url, body, o) : o.authorization;
  if (auth !== null) headers.Authorization = auth;
  const res = await fetch(baseUrl + url, {
    method,
    headers,
    body: method === 'GET' ? undefined : (o.sendBody ?? body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Verifies Wechatpay-* headers over `timestamp\nnonce\nbody\n` with the trusted keys. */
export function verifyWechatSignature(headers: { get(name: string): string | null }, body: string): boolean {
  const serial = headers.get('wechatpay-serial') ?? '';
  const key = trustedKeys[serial];
  if (!key) return false;
  const message = `${headers.get('wechatpay-timestamp')}\n${headers.get('wechatpay-nonce')}\n${body}\n`;
  return crypto
    .createVerify('RSA-SHA256')
    .update(message)
    .verify(key, headers.get('wechatpay-signature') ?? '', 'base64');
}

export interface Resource {
  ciphertext: string;
  associated_data: string;
  nonce: string;
  algorithm?: string;
}

/** AEAD_AES_256_GCM with final(): a bad tag or wrong associated data throws. */
export function decryptResource(resource: Resource, apiV3Key = testKeys.apiV3Key): any {
  const data = Buffer.from(resource.ciphertext, 'base64');
  const decipher = crypto.createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key), Buffer.from(resource.nonce));
  decipher.setAuthTag(data.subarray(data.length - 16));
  decipher.setAAD(Buffer.from(resource.associated_data));
  const plain = Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]);
  return JSON.parse(plain.toString('utf8'));
}

export interface Received {
  at: number;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A merchant notify endpoint: records every request and answers with reply(req). */
export interface Receiver {
  url: string;
  received: Received[];
  reply: (r: Received) => number | Promise<number>;
  close(): Promise<void>;
}

export async function startReceiver(reply: Receiver['reply'] = () => 204): Promise<Receiver> {
  const receiver = { received: [] as Received[], reply } as Receiver;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const r: Received = {
        at: Date.now(),
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      receiver.received.push(r);
      const status = await receiver.reply(r);
      res.statusCode = status;
      res.end(status >= 300 ? JSON.stringify({ code: 'FAIL', message: 'test says no' }) : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
}

export function headerGetter(h: http.IncomingHttpHeaders) {
  return { get: (name: string) => (h[name.toLowerCase()] as string | undefined) ?? null };
}

let seq = 0;
export function tradeNo(prefix = 'T'): string {
  seq += 1;
  return `${prefix}${Date.now()}${seq}${crypto.randomInt(1000)}`;
}

/** A JSAPI order body for the test app. */
export function jsapiBody(notifyUrl: string, overrides: Record<string, unknown> = {}) {
  return {
    appid: testKeys.appid,
    mchid: testKeys.mchid,
    description: '测试演出-VIP票',
    out_trade_no: tradeNo(),
    notify_url: notifyUrl,
    amount: { total: 1234, currency: 'CNY' },
    payer: { openid: 'oTestOpenid0000000000000000A' },
    ...overrides,
  };
}

/** Rfc3339 in +08:00 at seconds precision, like a merchant would send time_expire. */
export function beijingRfc3339(ms: number): string {
  const d = new Date(Math.floor(ms / 1000) * 1000 + 8 * 3600 * 1000);
  return d.toISOString().replace(/\.\d{3}Z$/, '+08:00');
}

export type PayParams = RequestPaymentParams;

/**
 * The wx.requestPayment parameters a merchant server builds for a prepay: paySign is
 * SHA256withRSA with the merchant key over `appId\ntimeStamp\nnonceStr\npackage\n`.
 * `signAppId` signs for another app; `key` signs with another key.
 */
export function requestPayment(
  prepayId: string,
  o: { signAppId?: string; key?: string; timeStamp?: string } = {},
): PayParams {
  const timeStamp = o.timeStamp ?? String(Math.floor(Date.now() / 1000));
  const nonceStr = crypto.randomBytes(16).toString('hex');
  const pkg = `prepay_id=${prepayId}`;
  const message = paySignMessage({ appId: o.signAppId ?? testKeys.appid, timeStamp, nonceStr, package: pkg });
  const paySign = crypto
    .createSign('RSA-SHA256')
    .update(message)
    .sign(o.key ?? merchantKey, 'base64');
  return { timeStamp, nonceStr, package: pkg, signType: 'RSA', paySign };
}

/**
 * For the tests of a describe: a simulator (notify retries 1000 times faster) and a merchant
 * receiver, handed to `use` once started, closed after; fresh for every test when `each`.
 */
export function withSimAndReceiver(use: (sim: Simulator, receiver: Receiver) => void, each = false): void {
  let sim: Simulator;
  let receiver: Receiver;
  (each ? beforeEach : beforeAll)(async () => {
    sim = await startSimulator({ notifyRetryScale: 0.001 });
    receiver = await startReceiver();
    use(sim, receiver);
  });
  (each ? afterEach : afterAll)(async () => {
    await sim.close();
    await receiver.close();
  });
}
