import { createHash, createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PayResponse } from '@showtix/shared-types';
import type { WechatConfig } from '../config/wechat';
import { PayHttp, type PayAnswer } from './pay-http';
import { PaySigner } from './pay-signer';
import type { WechatBreaker } from './breaker';
import { WechatPayError } from './pay-error';

/** A transaction as WeChat Pay v3 describes it (query answers and notification resources). */
export interface WxTransaction {
  appid: string;
  mchid: string;
  out_trade_no: string;
  transaction_id?: string;
  trade_state: string;
  success_time?: string;
  amount?: { total: number; payer_total?: number; currency?: string };
  payer?: { openid?: string };
}

export interface WxRefund {
  refund_id?: string;
  out_refund_no: string;
  out_trade_no?: string;
  status?: string; // query answer: SUCCESS | CLOSED | PROCESSING | ABNORMAL
  refund_status?: string; // notification resource
  amount?: { refund: number; total: number };
}

export { WechatPayError };

function fail(r: PayAnswer): never {
  let code = 'UNKNOWN';
  let message = String(r.error ?? '');
  try {
    const body = JSON.parse(message) as { code?: string; message?: string };
    code = body.code ?? code;
    message = body.message ?? message;
  } catch {
    /* not JSON: network error or unverifiable response */
  }
  throw new WechatPayError(r.status, code, message);
}

/** WeChat wants time_expire as RFC 3339 with an offset; Beijing time reads naturally in its console. */
export function beijingTime(d: Date): string {
  return new Date(d.getTime() + 8 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '+08:00');
}

/**
 * The merchant's private key, parsed once: given the PEM file's bytes, node:crypto parses the PEM
 * again at each signature (0.86 ms a signature on this project's 2-core VM, 0.26 ms with a parsed
 * key; bench/expiry --paying spent a quarter of the job's CPU there).
 */
export function merchantKey(path: string): KeyObject {
  return createPrivateKey(readFileSync(path));
}

/** One path segment or query value, escaped: the path is signed exactly as it is sent. */
const segment = encodeURIComponent;

/**
 * WeChat Pay v3, the calls the server makes: each signed (PaySigner) and sent with its answer
 * verified (PayHttp), errors thrown as WechatPayError. Every call goes through the breaker when
 * one is given (wechat/breaker.ts), so a slow or failing WeChat is refused fast for everyone.
 * The paths and bodies are WeChat's documented ones (wechat-sim serves the same).
 */
export class WechatPay {
  private readonly signer: PaySigner;
  private readonly http: PayHttp;

  constructor(
    private readonly c: WechatConfig,
    trusted: Map<string, KeyObject>,
    now: () => number,
    private readonly breaker?: WechatBreaker,
    timeoutMs?: number,
  ) {
    const key = merchantKey(c.merchantKeyPath);
    this.signer = new PaySigner({ mchid: c.mchid, serial: c.merchantSerial, key, now });
    this.http = new PayHttp(c.payApiBase, this.signer, trusted, now, timeoutMs);
  }

  private guard<T>(call: () => Promise<T>): Promise<T> {
    return this.breaker ? this.breaker.run(call) : call();
  }

  /** A JSAPI prepay, and the signed wx.requestPayment parameters the mini-program pays with. */
  async prepay(o: {
    orderNo: string;
    description: string;
    amountFen: number;
    expireAt: Date;
    openid: string;
  }): Promise<Omit<PayResponse, 'cashierUrl'>> {
    return this.guard(async () => {
      const r = await this.http.post('/v3/pay/transactions/jsapi', {
        appid: this.c.appid,
        mchid: this.c.mchid,
        description: o.description.slice(0, 127),
        out_trade_no: o.orderNo,
        time_expire: beijingTime(o.expireAt),
        notify_url: `${this.c.publicBaseUrl}/api/v1/pay/wechat/notify`,
        amount: { total: o.amountFen, currency: 'CNY' },
        payer: { openid: o.openid },
      });
      const prepayId = (r.data as { prepay_id?: unknown } | undefined)?.prepay_id;
      if (r.status !== 200 || typeof prepayId !== 'string' || !prepayId) fail(r);
      return { prepayId, payParams: await this.signer.payParams(this.c.appid, prepayId) };
    });
  }

  async query(orderNo: string): Promise<WxTransaction | undefined> {
    return this.guard(async () => {
      const r = await this.http.get(
        `/v3/pay/transactions/out-trade-no/${segment(orderNo)}?mchid=${segment(this.c.mchid)}`,
      );
      if (r.status === 200) return r.data as WxTransaction;
      if (r.status === 404) return undefined;
      fail(r);
    });
  }

  /** 'paid' when WeChat answers ORDERPAID: the order was paid and must be honoured. */
  async close(orderNo: string): Promise<'closed' | 'paid'> {
    return this.guard(async () => {
      const r = await this.http.post(`/v3/pay/transactions/out-trade-no/${segment(orderNo)}/close`, {
        mchid: this.c.mchid,
      });
      if (r.status === 204 || r.status === 200) return 'closed';
      if (r.status === 400 && String(r.error).includes('ORDERPAID')) return 'paid';
      fail(r);
    });
  }

  /** transactionId refunds that exact payment (a duplicate); otherwise the order's payment. */
  async refund(o: {
    orderNo: string;
    transactionId?: string;
    outRefundNo: string;
    refundFen: number;
    totalFen: number;
    reason: string;
  }): Promise<WxRefund> {
    return this.guard(async () => {
      const r = await this.http.post('/v3/refund/domestic/refunds', {
        ...(o.transactionId ? { transaction_id: o.transactionId } : { out_trade_no: o.orderNo }),
        out_refund_no: o.outRefundNo,
        reason: o.reason.slice(0, 80),
        notify_url: `${this.c.publicBaseUrl}/api/v1/pay/wechat/refund-notify`,
        amount: { refund: o.refundFen, total: o.totalFen, currency: 'CNY' },
      });
      if (r.status === 200) return r.data as WxRefund;
      fail(r);
    });
  }

  /**
   * The day's trade bill (date in Beijing time, YYYY-MM-DD) as CSV text, its SHA1 checked
   * against the signed answer. undefined when WeChat has no bill for the day (no trades).
   */
  async tradeBill(date: string): Promise<string | undefined> {
    return this.guard(async () => {
      const r = await this.http.get(`/v3/bill/tradebill?bill_date=${segment(date)}&bill_type=ALL`);
      if (r.status === 400 && String(r.error).includes('NO_STATEMENT_EXIST')) return undefined;
      if (r.status !== 200) fail(r);
      const { download_url: url, hash_value: hash } = r.data as { download_url: string; hash_value: string };
      // Fetched from our configured base, as every call: the signature covers path and query only.
      const where = new URL(url);
      const file = await this.http.get(where.pathname + where.search);
      if (file.status !== 200) fail(file);
      const bytes = file.data as Buffer;
      if (createHash('sha1').update(bytes).digest('hex') !== String(hash).toLowerCase()) {
        throw new WechatPayError(599, 'BILL_HASH', 'the trade bill does not match its hash');
      }
      return bytes.toString('utf8').replace(/^\uFEFF/, '');
    });
  }

  async queryRefund(outRefundNo: string): Promise<WxRefund | undefined> {
    return this.guard(async () => {
      const r = await this.http.get(`/v3/refund/domestic/refunds/${segment(outRefundNo)}`);
      if (r.status === 200) return r.data as WxRefund;
      if (r.status === 404) return undefined;
      fail(r);
    });
  }
}
