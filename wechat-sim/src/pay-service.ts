import type { LoadedKeys } from './keys';
import type { Notifier } from './notifier';
import type { Order, Store } from './store';
import { SimError, WxPayError, paramError } from './errors';
import { newPrepayId, newTransactionId } from './ids';
import { parseRequestPayment, RequestPaymentParams, verifyRequestPayment } from './request-payment';
import { parseRfc3339, rfc3339 } from './time';
import {
  asObject,
  canonical,
  currency,
  optionalString,
  requirePositiveInt,
  requireString,
  requireTradeNo,
  requireUrl,
} from './validate';

/** A prepay_id is valid for two hours (WeChat's documented validity). */
export const PREPAY_TTL_MS = 2 * 3600 * 1000;

export interface PayResult {
  ok: true;
  transactionId: string;
  outTradeNo: string;
}

export class PayService {
  constructor(
    private readonly store: Store,
    private readonly keys: LoadedKeys,
    private readonly notifier: Notifier,
  ) {}

  checkMchid(mchid: unknown, where: 'query' | 'body'): void {
    if (mchid === undefined || mchid === '') throw paramError('mchid', '必填');
    if (mchid !== this.keys.mchid) {
      throw new WxPayError(400, 'PARAM_ERROR', `${where}中的mchid与请求签名的商户号不一致`);
    }
  }

  /** POST /v3/pay/transactions/jsapi */
  createJsapi(raw: unknown): { prepay_id: string } {
    const order = this.parseJsapi(raw);
    const existing = this.store.orders.get(order.out_trade_no);
    if (existing) return { prepay_id: this.reuse(existing, order) };
    this.store.addOrder(order);
    return { prepay_id: order.prepay_id };
  }

  private reuse(existing: Order, incoming: Order): string {
    if (existing.trade_state === 'SUCCESS' || existing.trade_state === 'REFUND') {
      throw new WxPayError(400, 'ORDERPAID', '该订单已支付');
    }
    if (existing.trade_state === 'CLOSED') throw new WxPayError(400, 'ORDER_CLOSED', '订单已关闭');
    if (existing.fingerprint !== incoming.fingerprint) {
      throw new WxPayError(400, 'INVALID_REQUEST', '201 商户订单号重复');
    }
    return existing.prepay_id;
  }

  private parseJsapi(raw: unknown): Order {
    const body = asObject(raw, 'body');
    const appid = requireString(body, 'appid', 'appid', 1, 32);
    const mchid = requireString(body, 'mchid', 'mchid', 1, 32);
    if (appid !== this.keys.appid || mchid !== this.keys.mchid) {
      throw new WxPayError(400, 'APPID_MCHID_NOT_MATCH', 'appid和mch_id不匹配');
    }
    const amount = asObject(body.amount, 'amount');
    const payer = asObject(body.payer, 'payer');
    const timeExpire = optionalString(body, 'time_expire', 64);
    const expireAt = timeExpire === undefined ? undefined : parseRfc3339(timeExpire);
    if (expireAt === null) throw paramError('time_expire', '格式错误，应为rfc3339格式');
    if (expireAt !== undefined && expireAt <= Date.now()) throw paramError('time_expire', '早于当前时间');
    const now = Date.now();
    return {
      appid,
      mchid,
      description: requireString(body, 'description', 'description', 1, 127),
      out_trade_no: requireTradeNo(body, 'out_trade_no', 6, 32),
      time_expire: timeExpire,
      attach: optionalString(body, 'attach', 128),
      goods_tag: optionalString(body, 'goods_tag', 32),
      notify_url: requireUrl(body, 'notify_url'),
      amount: {
        total: requirePositiveInt(amount, 'total', 'amount/total'),
        currency: currency(amount, 'amount/currency', false),
      },
      payer: { openid: requireString(payer, 'openid', 'payer/openid', 1, 128) },
      prepay_id: newPrepayId(now),
      fingerprint: canonical(body),
      createdAt: now,
      expireAt,
      trade_state: 'NOTPAY',
    };
  }

  /** GET .../out-trade-no/{no} and .../id/{transaction_id} */
  find(by: 'out_trade_no' | 'transaction_id', value: string): Order {
    const order =
      by === 'out_trade_no' ? this.store.orders.get(value) : this.store.ordersByTransaction.get(value);
    if (!order) throw new WxPayError(404, 'ORDER_NOT_EXIST', '订单不存在');
    return order;
  }

  /**
   * POST .../out-trade-no/{no}/close. An unknown out_trade_no still answers 204, as real
   * WeChat Pay does; closing twice is fine; a paid order answers ORDERPAID.
   */
  close(outTradeNo: string, raw: unknown): void {
    const body = asObject(raw ?? {}, 'body');
    this.checkMchid(body.mchid, 'body');
    const order = this.store.orders.get(outTradeNo);
    if (!order) return;
    if (order.trade_state === 'SUCCESS' || order.trade_state === 'REFUND') {
      throw new WxPayError(400, 'ORDERPAID', '订单已支付');
    }
    order.trade_state = 'CLOSED';
  }

  /** Why an order cannot be paid now, or null if it can. */
  payBlocker(order: Order, now = Date.now()): { code: string; message: string } | null {
    if (order.trade_state === 'SUCCESS' || order.trade_state === 'REFUND') {
      return { code: 'ORDERPAID', message: '该订单已支付' };
    }
    if (order.trade_state === 'CLOSED') return { code: 'ORDER_CLOSED', message: '订单已关闭' };
    if (order.expireAt !== undefined && now >= order.expireAt) {
      return { code: 'ORDER_EXPIRED', message: '订单已过支付期限(time_expire)' };
    }
    if (now >= order.createdAt + PREPAY_TTL_MS) return { code: 'PREPAY_EXPIRED', message: 'prepay_id已过期' };
    return null;
  }

  orderByPrepay(prepayId: unknown): Order {
    const order = typeof prepayId === 'string' ? this.store.ordersByPrepay.get(prepayId) : undefined;
    if (!order) throw new SimError(404, 'PREPAY_NOT_FOUND', `unknown prepay_id ${String(prepayId)}`);
    return order;
  }

  /**
   * The wx.requestPayment parameters as WeChat checks them (shape, prepay_id, appId, paySign),
   * before anything is shown or paid. Whether the order can still be paid is payBlocker's.
   */
  authorize(raw: unknown): { order: Order; params: RequestPaymentParams } {
    const { params, prepayId } = parseRequestPayment(raw);
    const order = this.orderByPrepay(prepayId);
    verifyRequestPayment(params, order, this.keys);
    return { order, params };
  }

  /** The user confirms payment (cashier or /sim/pay): SUCCESS now, notification follows. */
  pay(raw: unknown): PayResult {
    return this.settle(this.authorize(raw).order);
  }

  /**
   * The contract's `POST /sim/pay {prepayId}`: the user confirms a prepay in the cashier, whose
   * opening already checked the wx.requestPayment parameters. Outside tools rely on this form;
   * the product's client and tests send the parameters, so pay() checks what WeChat checks.
   */
  payByPrepay(prepayId: unknown): PayResult {
    return this.settle(this.orderByPrepay(prepayId));
  }

  private settle(order: Order): PayResult {
    const blocker = this.payBlocker(order);
    if (blocker) throw new SimError(409, blocker.code, blocker.message);
    const now = Date.now();
    order.trade_state = 'SUCCESS';
    order.transaction_id = newTransactionId(now);
    order.success_time = rfc3339(now);
    order.paidAt = now;
    order.bank_type = 'OTHERS';
    if (this.store.faults.payCurrency) order.amount.currency = this.store.faults.payCurrency;
    this.store.ordersByTransaction.set(order.transaction_id, order);
    this.notifier.notifyTransaction(order);
    return { ok: true, transactionId: order.transaction_id, outTradeNo: order.out_trade_no };
  }
}
