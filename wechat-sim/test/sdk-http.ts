/**
 * How to point wechatpay-node-v3 2.2.1 at the simulator (or any base URL): replace its HTTP layer
 * with pay.createHttp(new BaseUrlHttp(base, trusted)). This file is the recipe quoted in README.
 *
 * - The SDK builds every URL on the hard-coded https://api.mch.weixin.qq.com and signs only the
 *   path + query, so swapping the origin here keeps its Authorization valid.
 * - It signs JSON.stringify(params); we send exactly that string.
 * - It never verifies response signatures; this layer does (node:crypto, both key modes).
 */
import crypto from 'node:crypto';
import type { IPayRequest } from 'wechatpay-node-v3/dist/lib/pay-request.interface';
import type { Output } from 'wechatpay-node-v3/dist/lib/interface-v2';

export const WECHATPAY_BASE = 'https://api.mch.weixin.qq.com';

export class BaseUrlHttp implements IPayRequest {
  /**
   * @param baseUrl e.g. http://127.0.0.1:3100 (simulator) or https://api.mch.weixin.qq.com
   * @param trusted Wechatpay-Serial -> public key (platform certificate and/or PUB_KEY_ID_ key)
   */
  constructor(
    private readonly baseUrl: string,
    private readonly trusted: Record<string, crypto.KeyObject>,
    private readonly maxSkewSeconds = 300,
  ) {}

  post(url: string, params: Record<string, unknown>, headers: Record<string, string>): Promise<Output> {
    return this.send('POST', url, headers, JSON.stringify(params));
  }

  get(url: string, headers: Record<string, string>): Promise<Output> {
    return this.send('GET', url, headers);
  }

  upload(): Promise<Output> {
    return Promise.reject(new Error('upload is not used by this project'));
  }

  private rebase(url: string): string {
    return url.startsWith(WECHATPAY_BASE) ? this.baseUrl + url.slice(WECHATPAY_BASE.length) : url;
  }

  private async send(
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<Output> {
    const target = this.rebase(url);
    const res = await fetch(target, {
      method,
      headers: { ...headers, 'Accept-Encoding': 'identity' },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const raw = Buffer.from(await res.arrayBuffer());
    const text = raw.toString('utf8');
    // Bill files are the only unsigned answers (their SHA1 is checked instead).
    const isBillFile = new URL(target).pathname === '/v3/billdownload/file';
    if (!isBillFile && !this.verify(res.headers, text)) {
      return {
        status: 599,
        error: 'response signature verification failed',
        errRaw: { status: res.status, text },
      };
    }
    // Same shapes as the SDK's own PayRequest: {status, data} on 2xx, {status, error, errRaw} otherwise.
    if (res.status >= 200 && res.status < 300) {
      const type = res.headers.get('content-type') ?? '';
      const data =
        text === '' ? {} : type.includes('json') ? JSON.parse(text) : type.startsWith('text/') ? text : raw;
      return { status: res.status, data };
    }
    return { status: res.status, error: text, errRaw: { status: res.status, text } };
  }

  private verify(h: Headers, body: string): boolean {
    const serial = h.get('wechatpay-serial') ?? '';
    const signature = h.get('wechatpay-signature') ?? '';
    const timestamp = Number(h.get('wechatpay-timestamp'));
    const key = this.trusted[serial];
    if (!key || signature.startsWith('WECHATPAY/SIGNTEST/')) return false;
    if (!Number.isFinite(timestamp) || Math.abs(Date.now() / 1000 - timestamp) >= this.maxSkewSeconds)
      return false;
    const message = `${h.get('wechatpay-timestamp')}\n${h.get('wechatpay-nonce')}\n${body}\n`;
    return crypto.createVerify('RSA-SHA256').update(message).verify(key, signature, 'base64');
  }
}
