import { createHash, createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PayParams, PayResponse } from '@showtix/shared-types';
import Pay from 'wechatpay-node-v3';
import type { Output } from 'wechatpay-node-v3/dist/lib/interface-v2';
import type { WechatConfig } from '../config/wechat';
import { VerifiedPayHttp } from './pay-http';
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

function fail(r: Output): never {
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
 * The merchant's private key parsed once. The SDK signs every request, and every prepay's
 * wx.requestPayment parameters, with `crypto.createSign().sign(privateKey)`; given the PEM file's
 * bytes, Node parsed the PEM again at each signature: 0.86 ms a signature on this project's
 * 2-core VM, 0.26 ms with a parsed key (bench/expiry --paying spent a quarter of the job's CPU
 * there). The SDK's type says Buffer, but it only hands the key to node:crypto (sign and
 * privateDecrypt), which takes a KeyObject as well.
 */
export function merchantKey(path: string): Buffer {
  return createPrivateKey(readFileSync(path)) as unknown as Buffer;
}

/**
 * wechatpay-node-v3 wrapped: requests signed by the SDK, sent and verified by VerifiedPayHttp,
 * errors thrown as WechatPayError instead of returned. Every call goes through the breaker when
 * one is given (wechat/breaker.ts), so a slow or failing WeChat is refused fast for everyone.
 */
export class WechatPay {
  private readonly pay: Pay;

  constructor(
    private readonly c: WechatConfig,
    trusted: Map<string, KeyObject>,
    now: () => number,
    private readonly breaker?: WechatBreaker,
    timeoutMs?: number,
  ) {
    this.pay = new Pay({
      appid: c.appid,
      mchid: c.mchid,
      serial_no: c.merchantSerial, // passed explicitly: the SDK would derive a lower-case serial
      publicKey: readFileSync(c.merchantCertPath),
      privateKey: merchantKey(c.merchantKeyPath),
      key: c.apiV3Key,
    });
    this.pay.createHttp(new VerifiedPayHttp(c.payApiBase, trusted, now, timeoutMs));
  }

  private guard<T>(call: () => Promise<T>): Promise<T> {
    return this.breaker ? this.breaker.run(call) : call();
  }

  async prepay(o: {
    orderNo: string;
    description: string;
    amountFen: number;
    expireAt: Date;
    openid: string;
  }): Promise<Omit<PayResponse, 'cashierUrl'>> {
    return this.guard(async () => {
      const r = await this.pay.transactions_jsapi({
        description: o.description.slice(0, 127),
        out_trade_no: o.orderNo,
        time_expire: beijingTime(o.expireAt),
        notify_url: `${this.c.publicBaseUrl}/api/v1/pay/wechat/notify`,
        amount: { total: o.amountFen, currency: 'CNY' },
        payer: { openid: o.openid },
      });
      if (r.status !== 200) fail(r);
      // The SDK replaces the answer by the wx.requestPayment parameters; prepay_id is in `package`.
      const d = r.data as PayParams;
      return {
        prepayId: d.package.replace(/^prepay_id=/, ''),
        payParams: {
          timeStamp: d.timeStamp,
          nonceStr: d.nonceStr,
          package: d.package,
          signType: d.signType,
          paySign: d.paySign,
        },
      };
    });
  }

  async query(orderNo: string): Promise<WxTransaction | undefined> {
    return this.guard(async () => {
      const r = await this.pay.query({ out_trade_no: orderNo });
      if (r.status === 200) return r.data as WxTransaction;
      if (r.status === 404) return undefined;
      fail(r);
    });
  }

  /** 'paid' when WeChat answers ORDERPAID: the order was paid and must be honoured. */
  async close(orderNo: string): Promise<'closed' | 'paid'> {
    return this.guard(async () => {
      const r = await this.pay.close(orderNo);
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
      const r = await this.pay.refunds({
        ...(o.transactionId ? { transaction_id: o.transactionId } : { out_trade_no: o.orderNo }),
        out_refund_no: o.outRefundNo,
        reason: o.reason.slice(0, 80),
        notify_url: `${this.c.publicBaseUrl}/api/v1/pay/wechat/refund-notify`,
        amount: { refund: o.refundFen, total: o.totalFen, currency: 'CNY' },
      } as Parameters<Pay['refunds']>[0]);
      if (r.status === 200) return r.data as WxRefund;
      fail(r as Output);
    });
  }

  /**
   * The day's trade bill (date in Beijing time, YYYY-MM-DD) as CSV text, its SHA1 checked
   * against the signed answer. undefined when WeChat has no bill for the day (no trades).
   */
  async tradeBill(date: string): Promise<string | undefined> {
    return this.guard(async () => {
      const r = await this.pay.tradebill({ bill_date: date, bill_type: 'ALL' });
      if (r.status === 400 && String(r.error).includes('NO_STATEMENT_EXIST')) return undefined;
      if (r.status !== 200) fail(r);
      const { download_url: url, hash_value: hash } = r.data as { download_url: string; hash_value: string };
      // The SDK signs only URLs on WeChat's own origin: give it that one, the HTTP layer rebases it.
      const file = await this.pay.downloadBill(
        url.replace(/^https?:\/\/[^/]+/, 'https://api.mch.weixin.qq.com'),
      );
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
      const r = await this.pay.find_refunds(outRefundNo);
      if (r.status === 200) return r.data as WxRefund;
      if (r.status === 404) return undefined;
      fail(r as Output);
    });
  }
}
