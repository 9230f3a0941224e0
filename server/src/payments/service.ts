import type { Logger } from 'pino';
import type { PayResponse } from '@showtix/shared-types';
import type { WechatConfig } from '../config/wechat';
import { inTransaction, type Db } from '../db/pool';
import { appError } from '../errors';
import { orders } from '../orders/repo';
import { ORDER_STATUS, type OrderRecord } from '../orders/types';
import { enqueue } from '../outbox/repo';
import type { OutboxRelay } from '../outbox/relay';
import type { RefundService } from '../refunds/service';
import { WechatPayError, type WechatPay, type WxTransaction } from '../wechat/pay';
import { WechatBusyError, wechatBusy } from '../wechat/breaker';
import { eachLimited } from '../each-limited';
import { NotifiedPayments } from './batch';
import { CURRENCY, markPaid, paymentRow, suspicion, type ApplyResult } from './receipt';
import { insertPayment, markChecked, paymentsToCheck, setPrepay } from './repo';

/** WeChat queries in flight at once when missing notifications are looked for (checkPending). */
const CHECK_PARALLEL = 32;
/** Orders read and marked together by checkPending. */
const CHECK_BATCH = 200;
/** One checkPending run stops after this long; the next run (5 s later) goes on. */
const CHECK_RUN_BUDGET_MS = 10_000;

export interface PaymentDeps {
  db: Db;
  pay: WechatPay;
  wechat: WechatConfig;
  relay: OutboxRelay;
  refunds: RefundService;
  log: Logger;
  /** Payments end their buyers' expired-hold streaks (the buyers of a batch at once). */
  onPaid: (userIds: readonly string[]) => Promise<void>;
  /** Every money receipt's outcome, `n` receipts at once (the payments_total metric). */
  onApplied?: (outcome: ApplyResult, n: number) => void;
}

/** A validly signed payment that does not match our order: changes nothing, logged. */
export class SuspiciousPayment extends Error {}

/**
 * Trade states after which no money stays with us for this order: closed, revoked or failed
 * (WeChat will not take money any more), or already refunded in full at WeChat.
 */
const CANCELLABLE_TRADE_STATES = new Set(['CLOSED', 'REVOKED', 'PAYERROR', 'REFUND']);

export type { ApplyResult } from './receipt';

export class PaymentService {
  /** WeChat's notifications that arrive together, applied together (payments/batch.ts). */
  private readonly notified: NotifiedPayments;

  constructor(private readonly d: PaymentDeps) {
    // 50 a batch at most; two batches in flight, so one waits for MySQL while the next gathers.
    this.notified = new NotifiedPayments({ ...d, payments: this }, { batchMax: 50, inflightMax: 2 });
  }

  /** A payment notification's transaction: applyTransaction, batched with those that arrive with it. */
  applyNotified(tx: WxTransaction, now: Date): Promise<ApplyResult> {
    return this.notified.apply(tx, now);
  }

  /** JSAPI prepay for the owner's pending order; WeChat refuses money after our hold expires. */
  async prepay(userId: string, orderNo: string, now: Date, description: string): Promise<PayResponse> {
    const found = await orders.withBuyerOpenid(this.d.db, orderNo);
    const order = found?.order;
    if (!order || order.userId !== userId) throw appError('NOT_FOUND', undefined, '订单不存在');
    if (order.status === ORDER_STATUS.CANCELLED)
      throw appError(
        order.cancelReason === 'expired' ? 'ORDER_EXPIRED' : 'ORDER_STATE_INVALID',
        undefined,
        order.cancelReason === 'expired' ? undefined : '订单已取消',
      );
    if (order.status !== ORDER_STATUS.PENDING) throw appError('ORDER_STATE_INVALID', undefined, '订单已支付');
    if (order.expireAt.getTime() <= now.getTime()) throw appError('ORDER_EXPIRED');
    const openid = found.openid;
    if (!openid) throw appError('FORBIDDEN', undefined, '请先使用微信登录');
    let answer: Omit<PayResponse, 'cashierUrl'>;
    try {
      answer = await this.d.pay.prepay({
        orderNo,
        description,
        amountFen: order.amountFen,
        expireAt: order.expireAt,
        openid,
      });
    } catch (err) {
      // WeChat slow or its breaker open: the fan is told so, and when to try again.
      if (err instanceof WechatBusyError) throw wechatBusy(err);
      this.d.log.error({ err, orderNo }, 'JSAPI prepay failed');
      throw appError('SERVICE_UNAVAILABLE', undefined, '微信支付暂时不可用，请稍后再试');
    }
    await setPrepay(this.d.db, order.id, answer.prepayId, now);
    const cashierUrl = this.d.wechat.cashierUrl
      ? `${this.d.wechat.cashierUrl}?prepay_id=${encodeURIComponent(answer.prepayId)}`
      : undefined;
    return { ...answer, ...(cashierUrl ? { cashierUrl } : {}) };
  }

  private check(tx: WxTransaction, order: OrderRecord | undefined): asserts order is OrderRecord {
    const why = suspicion(this.d.wechat, tx, order);
    if (why) {
      this.d.log.warn(
        { outTradeNo: tx.out_trade_no, transactionId: tx.transaction_id, why },
        'suspicious payment refused',
      );
      throw new SuspiciousPayment(why);
    }
  }

  /**
   * Money received (from a notification or a query). One transaction: the order row is locked,
   * the payment recorded under its unique transaction id (a repeat changes nothing), and the
   * order moved to paid with an outbox message; or, for an order we no longer hold, the payment
   * is kept for the late-payment consumer, which re-takes the seats or refunds.
   */
  async applyTransaction(tx: WxTransaction, now: Date): Promise<ApplyResult> {
    let buyer = '';
    const result = await inTransaction(this.d.db, async (conn): Promise<ApplyResult> => {
      const order = await orders.byNo(conn, tx.out_trade_no, { lock: true });
      this.check(tx, order);
      buyer = order.userId;
      const currency = tx.amount?.currency ?? CURRENCY;
      if (currency !== CURRENCY) {
        // WeChat took money, but not what the order costs: never a payment of the order. It is
        // recorded (accounted for, reconciled) and refunded in full through the refunds path,
        // in this transaction; a repeat of the notification finds it recorded and changes nothing.
        const payment = await insertPayment(conn, paymentRow(order.id, tx, currency, now, 'wrong_currency'));
        if (payment) {
          await this.d.refunds.refundPaymentInTx(conn, order, payment, 'currency', now);
          this.d.log.error(
            { outTradeNo: tx.out_trade_no, transactionId: tx.transaction_id, currency },
            'payment in a foreign currency refunded; the order stays unpaid',
          );
        }
        return 'wrong_currency';
      }
      const live = order.status === ORDER_STATUS.PENDING;
      const late = order.status === ORDER_STATUS.CANCELLED;
      const payment = await insertPayment(
        conn,
        paymentRow(order.id, tx, currency, now, live ? 'applied' : late ? 'late' : 'duplicate'),
      );
      if (!payment) return 'duplicate';
      if (live) {
        await markPaid(conn, [order], now);
        return 'applied';
      }
      if (late) {
        await enqueue(conn, 'payment.late', order.id, { orderId: order.id, paymentId: payment.id });
        return 'late';
      }
      // Paid twice (another transaction already paid this order): give this money back.
      await this.d.refunds.refundPaymentInTx(conn, order, payment, 'duplicate', now);
      return 'double_payment';
    });
    await this.afterApply(result, [buyer]);
    return result;
  }

  /**
   * After the commit of receipts that all ended in `result` (one per buyer, a buyer once per
   * receipt): the metric, the outbox sent at once, the buyers' streaks ended.
   */
  async afterApply(result: ApplyResult, buyers: readonly string[]): Promise<void> {
    this.d.onApplied?.(result, buyers.length);
    if (result !== 'duplicate') this.d.relay.nudge();
    if (result === 'applied')
      await this.d
        .onPaid(buyers)
        .catch((err) => this.d.log.error({ err }, 'resetting the expired-hold streak'));
  }

  /**
   * Before a pending order is cancelled (expiry or buyer): if a payment was started, close it at
   * WeChat. ORDERPAID means money came: the query decides, and only a definite state ends the
   * guard. SUCCESS is applied and the order kept ('paid'); a trade WeChat will never complete,
   * or whose money went back already, lets the order go ('cancel'); anything else (still
   * paying, or an answer that contradicts the close) is asked again on the next run ('retry').
   */
  async settleBeforeCancel(orderId: string, now: Date): Promise<'cancel' | 'paid' | 'retry'> {
    const order = await orders.byId(this.d.db, orderId);
    if (!order?.prepayId) return 'cancel';
    try {
      if ((await this.d.pay.close(order.orderNo)) === 'closed') return 'cancel';
      const tx = await this.d.pay.query(order.orderNo);
      const state = tx?.trade_state ?? 'NOT_FOUND';
      if (tx && state === 'SUCCESS') {
        // Money in a foreign currency does not pay the order: it is refunded, the order goes.
        if ((await this.applyTransaction(tx, now)) === 'wrong_currency') return 'cancel';
        return 'paid';
      }
      if (CANCELLABLE_TRADE_STATES.has(state)) {
        if (state === 'REFUND')
          this.d.log.error(
            { orderNo: order.orderNo, transactionId: tx?.transaction_id },
            'a payment we never recorded was refunded at WeChat; the order is cancelled (reconciliation shows it)',
          );
        return 'cancel';
      }
      this.d.log.warn(
        { orderNo: order.orderNo, state },
        'close answered ORDERPAID but the trade is not settled',
      );
      return 'retry';
    } catch (err) {
      this.d.log.warn(
        { err: err instanceof WechatPayError ? err.message : err, orderId },
        'could not close the WeChat order; will retry',
      );
      return 'retry';
    }
  }

  /**
   * Missing notifications: ask WeChat about the pending orders whose payment began `afterMs` ago
   * and that were not asked about in the last 30 s, oldest first, side by side (CHECK_PARALLEL
   * queries in flight), a batch at a time until none is left or the run's budget is spent. An
   * on-sale leaves thousands of payment sheets opened and abandoned, each pending until its hold
   * ends and asked about again every 30 s. Asked one at a time (~100 ms a query, 50 a run every
   * 5 s: 10 a second), a paid order whose notification was lost waited behind them for minutes.
   */
  async checkPending(now: Date, afterMs: number): Promise<number> {
    let applied = 0;
    const started = performance.now();
    for (;;) {
      const due = await paymentsToCheck(
        this.d.db,
        new Date(now.getTime() - afterMs),
        new Date(now.getTime() - 30_000),
        CHECK_BATCH,
      );
      applied += await this.checkPayments(due, now);
      // Every order asked about is marked, so the next batch holds others.
      if (due.length < CHECK_BATCH || performance.now() - started > CHECK_RUN_BUDGET_MS) return applied;
    }
  }

  /** One batch of checkPending: each order's trade asked about, a paid one applied; all marked. */
  private async checkPayments(due: { id: string; orderNo: string }[], now: Date): Promise<number> {
    let applied = 0;
    await eachLimited(due, CHECK_PARALLEL, async ({ orderNo }) => {
      try {
        const tx = await this.d.pay.query(orderNo);
        if (tx?.trade_state === 'SUCCESS' && (await this.applyTransaction(tx, now)) === 'applied') applied++;
      } catch (err) {
        this.d.log.warn({ err, orderNo }, 'payment query failed');
      }
    });
    await markChecked(
      this.d.db,
      due.map((o) => o.id),
      now,
    );
    return applied;
  }
}
