import type { KeyObject } from 'node:crypto';
import { request } from 'undici';
import type { PaySigner } from './pay-signer';
import { verifyWechatSignature } from './signature';

/** An answer of WeChat Pay: `data` (the parsed JSON, or a bill's bytes) on 2xx, else `error`. */
export interface PayAnswer {
  status: number;
  data?: unknown;
  /** The answer's text (WeChat's JSON error), or why there was no verified answer. */
  error?: string;
}

/** Bill files are the one answer WeChat does not sign: their SHA1 is checked instead. */
const BILL_FILE_PATH = '/v3/billdownload/file';

/**
 * WeChat Pay v3 over HTTP: each request signed (PaySigner) for the exact path, query and body it
 * sends to the configured base URL, and each answer's signature verified against the trusted
 * keys before anything in it is read. Status 0: no answer (network); 599: an answer whose
 * signature did not verify.
 *
 * Sent with undici's `request`, not `fetch` (the same library under Node's fetch): fetch's WHATWG
 * streams, Headers and per-call AbortSignal were a fifth of a prepay's CPU in the server's
 * process (bench/expiry --paying, profiled 2026-12-06). `timeoutMs` bounds the wait for the
 * answer's headers and, after them, for each chunk of its body (the breaker's own timeout,
 * wechat/breaker.ts, bounds the whole call).
 */
export class PayHttp {
  constructor(
    private readonly baseUrl: string,
    private readonly signer: PaySigner,
    private readonly trusted: Map<string, KeyObject>,
    private readonly now: () => number,
    private readonly timeoutMs = 10_000,
  ) {}

  post(pathAndQuery: string, params: object): Promise<PayAnswer> {
    return this.send('POST', pathAndQuery, JSON.stringify(params));
  }

  get(pathAndQuery: string): Promise<PayAnswer> {
    return this.send('GET', pathAndQuery, '');
  }

  private async send(method: 'GET' | 'POST', pathAndQuery: string, body: string): Promise<PayAnswer> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Accept-Encoding': 'identity',
      'User-Agent': 'showtix',
      Authorization: await this.signer.authorization(method, pathAndQuery, body),
    };
    if (method === 'POST') headers['Content-Type'] = 'application/json';
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(this.baseUrl + pathAndQuery, {
        method,
        headers,
        body: method === 'POST' ? body : undefined,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
    } catch (err) {
      return { status: 0, error: `network: ${(err as Error).message}` };
    }
    const status = res.statusCode;
    const ok = status >= 200 && status < 300;
    if (pathAndQuery.split('?')[0] === BILL_FILE_PATH) {
      // Its exact bytes (a BOM included): the caller checks their SHA1 against the signed hash_value.
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
    if (verdict !== 'ok') return { status: 599, error: `response signature ${verdict}` };
    if (ok) return { status, data: text === '' ? {} : JSON.parse(text) };
    return { status, error: text };
  }
}
