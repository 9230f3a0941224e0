import type { KeyObject } from 'node:crypto';
import type { Output } from 'wechatpay-node-v3/dist/lib/interface-v2';
import type { IPayRequest } from 'wechatpay-node-v3/dist/lib/pay-request.interface';
import { verifyWechatSignature } from './signature';

const WECHATPAY_ORIGIN = 'https://api.mch.weixin.qq.com';

/**
 * The HTTP layer under wechatpay-node-v3 (its supported hook, `pay.createHttp`). It sends the
 * exact body string the SDK signed to our configured base URL (only path and query are signed,
 * so rebasing keeps the Authorization valid), and it verifies WeChat's response signature,
 * which the SDK never does. Results keep the SDK's shapes: {status, data} or {status, error}.
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
    let res: Response;
    try {
      res = await fetch(target, {
        method,
        headers: { ...headers, 'Accept-Encoding': 'identity' },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      return { status: 0, error: `network: ${(err as Error).message}` };
    }
    // Bill files are not signed: the caller checks the SHA1 of their exact bytes (a BOM
    // included) against the signed hash_value.
    if (new URL(target).pathname === '/v3/billdownload/file') {
      const bytes = Buffer.from(await res.arrayBuffer());
      return res.ok
        ? { status: res.status, data: bytes }
        : { status: res.status, error: bytes.toString('utf8') };
    }
    const text = await res.text();
    const verdict = verifyWechatSignature(
      {
        serial: res.headers.get('wechatpay-serial') ?? '',
        signature: res.headers.get('wechatpay-signature') ?? '',
        timestamp: res.headers.get('wechatpay-timestamp') ?? '',
        nonce: res.headers.get('wechatpay-nonce') ?? '',
        body: text,
      },
      this.trusted,
      this.now(),
    );
    if (verdict !== 'ok')
      return { status: 599, error: `response signature ${verdict}`, errRaw: { status: res.status, text } };
    if (res.ok) return { status: res.status, data: text === '' ? {} : JSON.parse(text) };
    return { status: res.status, error: text, errRaw: { status: res.status, text } };
  }
}
