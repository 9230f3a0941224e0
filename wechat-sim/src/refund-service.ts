import type { Notifier } from './notifier';
import type { Order, Refund, Store } from './store';
import type { TimerSet } from './timers';
import { WxPayError, paramError } from './errors';
import { newRefundId } from './ids';
import { rfc3339 } from './time';
import {
  asObject,
  canonical,
  currency,
  optionalString,
  requirePositiveInt,
  requireTradeNo,
  requireUrl,
} from './validate';

/** WeChat allows at most 50 partial refunds per payment. */
export const MAX_REFUNDS_PER_PAYMENT = 50;

export class RefundService {
  constructor(
    private readonly store: Store,
    private readonly notifier: Notifier,
    private readonly timers: TimerSet,
    private readonly delayMs: number,
  ) {}

  /** POST /v3/refund/domestic/refunds: PROCESSING now, the outcome after delayMs. */
  create(raw: unknown): Refund {
    const body = asObject(raw, 'body');
    const outRefundNo = requireTradeNo(body, 'out_refund_no', 1, 64, '|@');
    const amount = asObject(body.amount, 'amount');
    const refundFen = requirePositiveInt(amount, 'refund', 'amount/refund');
    const totalFen = requirePositiveInt(amount, 'total', 'amount/total');
    const cur = currency(amount, 'amount/currency', true);
    const fingerprint = canonical({ ...body, reason: undefined, notify_url: undefined });
    const existing = this.store.refunds.get(outRefundNo);
    if (existing) {
      // Same out_refund_no = the same refund, whatever state it reached; never a second one.
      if (existing.fingerprint !== fingerprint) {
        throw new WxPayError(400, 'INVALID_REQUEST', '订单金额或退款金额与之前请求不一致，请核实后再试');
      }
      return existing;
    }
    if (this.store.faults.refundNotEnough) {
      throw new WxPayError(403, 'NOT_ENOUGH', '基本账户余额不足，请充值后重新发起');
    }
    const order = this.findOrder(body);
    this.checkRefundable(order, refundFen, totalFen);
    const now = Date.now();
    const refund: Refund = {
      refund_id: newRefundId(),
      out_refund_no: outRefundNo,
      transaction_id: order.transaction_id as string,
      out_trade_no: order.out_trade_no,
      reason: optionalString(body, 'reason', 80),
      notify_url: body.notify_url === undefined ? undefined : requireUrl(body, 'notify_url'),
      status: 'PROCESSING',
      outcome: this.store.faults.refundOutcome,
      refund: refundFen,
      total: totalFen,
      currency: cur,
      fingerprint,
      createdAt: now,
      create_time: rfc3339(now),
    };
    this.store.refunds.set(outRefundNo, refund);
    order.trade_state = 'REFUND';
    this.timers.after(this.delayMs, () => this.finish(refund));
    return refund;
  }

  private findOrder(body: Record<string, unknown>): Order {
    const { transaction_id: txId, out_trade_no: outTradeNo } = body;
    if (txId === undefined && outTradeNo === undefined)
      throw paramError('out_trade_no', '与transaction_id二选一必填');
    const order =
      typeof txId === 'string'
        ? this.store.ordersByTransaction.get(txId)
        : typeof outTradeNo === 'string'
          ? this.store.orders.get(outTradeNo)
          : undefined;
    if (!order) throw new WxPayError(404, 'RESOURCE_NOT_EXISTS', '订单不存在');
    if (!order.transaction_id) throw new WxPayError(400, 'INVALID_REQUEST', '订单未支付，不能退款');
    return order;
  }

  private checkRefundable(order: Order, refundFen: number, totalFen: number): void {
    if (totalFen !== order.amount.total) {
      throw new WxPayError(400, 'INVALID_REQUEST', '订单金额与原订单金额不一致');
    }
    const live = this.store.refundsOf(order.out_trade_no).filter((r) => r.status !== 'CLOSED');
    if (this.store.refundsOf(order.out_trade_no).length >= MAX_REFUNDS_PER_PAYMENT) {
      throw new WxPayError(400, 'INVALID_REQUEST', `同一笔订单最多退款${MAX_REFUNDS_PER_PAYMENT}次`);
    }
    const refunded = live.reduce((sum, r) => sum + r.refund, 0);
    if (refunded >= order.amount.total) throw new WxPayError(400, 'INVALID_REQUEST', '订单已全额退款');
    if (refunded + refundFen > order.amount.total) {
      throw new WxPayError(400, 'INVALID_REQUEST', '申请退款金额超过订单可退金额');
    }
  }

  /** The bank's answer arrives: apply the outcome chosen at creation and notify. */
  finish(refund: Refund): void {
    if (refund.status !== 'PROCESSING') return;
    const now = Date.now();
    refund.status = refund.outcome;
    refund.finishedAt = now;
    if (refund.status === 'SUCCESS') refund.success_time = rfc3339(now);
    if (refund.status === 'CLOSED') this.restoreTradeState(refund.out_trade_no);
    this.notifier.notifyRefund(refund);
  }

  /** A closed refund gave the money back to the merchant: no live refund left = plain SUCCESS. */
  private restoreTradeState(outTradeNo: string): void {
    const order = this.store.orders.get(outTradeNo);
    const live = this.store.refundsOf(outTradeNo).some((r) => r.status !== 'CLOSED');
    if (order && !live) order.trade_state = 'SUCCESS';
  }

  /** POST /v3/refund/domestic/refunds/{refund_id}/apply-abnormal-refund: retry an ABNORMAL refund. */
  applyAbnormal(refundId: string, raw: unknown): Refund {
    const body = asObject(raw, 'body');
    const outRefundNo = requireTradeNo(body, 'out_refund_no', 1, 64, '|@');
    const refund = this.store.refunds.get(outRefundNo);
    if (!refund || refund.refund_id !== refundId)
      throw new WxPayError(404, 'RESOURCE_NOT_EXISTS', '退款单不存在');
    if (body.type !== 'USER_BANK_CARD' && body.type !== 'MERCHANT_BANK_CARD') {
      throw paramError('type', '应为USER_BANK_CARD或MERCHANT_BANK_CARD');
    }
    if (refund.status !== 'ABNORMAL') throw new WxPayError(400, 'INVALID_REQUEST', '退款单状态不是退款异常');
    refund.status = 'PROCESSING';
    refund.outcome = 'SUCCESS';
    this.timers.after(this.delayMs, () => this.finish(refund));
    return refund;
  }

  find(outRefundNo: string): Refund {
    const refund = this.store.refunds.get(outRefundNo);
    if (!refund) throw new WxPayError(404, 'RESOURCE_NOT_EXISTS', '退款单不存在');
    return refund;
  }
}
