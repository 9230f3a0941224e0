import type { KeyObject } from 'node:crypto';
import { request } from 'undici';
import type { Output } from 'wechatpay-node-v3/dist/lib/interface-v2';
import type { IPayRequest } from 'wechatpay-node-v3/dist/lib/pay-request.interface';
import { verifyWechatSignature } from './signature';

const WECHATPAY_ORIGIN = 'https://api.mch.weixin.qq.com';

/**
 * The HTTP layer under wechatpay-node-v3 (its supported hook, `pay.createHttp`). It sends the
 * exact body string the SDK signed to our configured base URL (only path and query are signed,
 * so rebasing keeps the Authorization valid), and it verifies WeChat's response signature,
 * which the SDK never does. Results keep the SDK's shapes: {status, data} or {status, error}.
 *
 * Sent with undici's `request`, not `fetch` (the same library under Node's fetch): fetch's WHATWG
 * streams, Headers and per-call AbortSignal were a fifth of a prepay's CPU in the server's
 * process (bench/expiry --paying, profiled 2026-12-06). `timeoutMs` bounds the wait for the
 * answer's headers and, after them, for each chunk of its body (the breaker's own timeout,
 * wechat/breaker.ts, bounds the whole call).
 */
export class VerifiedPayHttp implements IPayRequest {
  constructor(
    private readonly baseUrl: string,
    private readonly trusted: Map<string, KeyObject>,
    private readonly now: () => number,
    private readonly timeoutMs = 10_000,
  ) {}

  post(url: string, params: Record<string, unknown>, headers: Record<string, string>): Promise<Output> {
    return this.send('POST', url, headers, JSON.stringify(params));
  }

  get(url: string, headers: Record<string, string>): Promise<Output> {
    return this.send('GET', url, headers);
  }

  upload(): Promise<Output> {
    return Promise.reject(new Error('uploads are not used'));
  }

  private async send(
    method: string,
    url: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<Output> {
    const target = url.startsWith(WECHATPAY_ORIGIN) ? this.baseUrl + url.slice(WECHATPAY_ORIGIN.length) : url;
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(target, {
        method: method as 'GET' | 'POST',
        headers: { ...headers, 'Accept-Encoding': 'identity' },
        body,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
    } catch (err) {
      return { status: 0, error: `network: ${(err as Error).message}` };
    }
    const status = res.statusCode;
    const ok = status >= 200 && status < 300;
    // Bill files are not signed: the caller checks the SHA1 of their exact bytes (a BOM
    // included) against the signed hash_value.
    if (new URL(target).pathname === '/v3/billdownload/file') {
      const bytes = Buffer.from(await res.body.arrayBuffer());
      return ok ? { status, data: bytes } : { status, error: bytes.toString('utf8') };
    }
    const text = await res.body.text();
    const header = (name: string) => {
      const v = res.headers[name];
      return (Array.isArray(v) ? v[0] : v) ?? '';
    };
    const verdict = verifyWechatSignature(
      {
        serial: header('wechatpay-serial'),
        signature: header('wechatpay-signature'),
        timestamp: header('wechatpay-timestamp'),
        nonce: header('wechatpay-nonce'),
        body: text,
      },
      this.trusted,
      this.now(),
    );
    if (verdict !== 'ok')
      return { status: 599, error: `response signature ${verdict}`, errRaw: { status, text } };
    if (ok) return { status, data: text === '' ? {} : JSON.parse(text) };
    return { status, error: text, errRaw: { status, text } };
  }
}
