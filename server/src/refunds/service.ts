import { inTransaction, type Conn } from '../db/pool';
import { appError } from '../errors';
import { exchangeOriginalNo, orders, releaseAttendeeClaims, releaseItemClaims } from '../orders/repo';
import { ORDER_STATUS, type OrderRecord } from '../orders/types';
import { enqueue } from '../outbox/repo';
import { WechatPayError, type WxRefund } from '../wechat/pay';
import {
  createRefund,
  refunds,
  noteRefundFailure,
  openRefundCase,
  orderSessionCancelled,
  REFUND_STATUS,
  resolveRefundCase,
  type RefundCaseReason,
  type PaymentRefundKind,
  type RefundKind,
  type RefundRecord,
} from './repo';
import { RefundCheck } from './check';
import { buyerFee as feeUnderTiers, refuseIfTransferred } from './guards';
import type { PaidMoney, RefundActor, RefundDeps } from './types';
import { outRefundNo, PAYMENT_REFUND, resendDelayMs, RESEND_CASE_AFTER } from './naming';
import { admittedCount, lockItemTickets, lockOrderTickets, moveItemTickets } from '../tickets/repo';
import {
  addRefundItems,
  freeRefundItems,
  itemsNotRefunded,
  itemsOfRefund,
  nextRefundSeq,
  refundableItems,
  refundedOrOpenFen,
} from './items-repo';
import { pickItems } from './pick';
import { freeCancelledExchanges } from '../exchanges/repo';
import { refundExchangeItems } from '../exchanges/family-refund';
import { move, ORDER_LIFECYCLE, REFUND_LIFECYCLE, TICKET_LIFECYCLE, tryMove } from '../lifecycle/transitions';

/**
 * Refunds: requested by the buyer (under the show's tiers) or an admin (in full), or made by
 * the system for money we cannot keep (late or duplicate payments). All go through one path:
 * a refunds row and an outbox message in the caller's transaction, the WeChat call by a
 * consumer (stable out_refund_no), and the outcome from WeChat's notification or a query.
 */
export class RefundService {
  private readonly check: RefundCheck;

  constructor(private readonly d: RefundDeps) {
    this.check = new RefundCheck(d, (wx, now) => this.applyResult(wx, now));
  }

  /**
   * The one path for refunding an order: buyer (with the show's fee) or admin (full). ticketIds
   * (ticket numbers): only those tickets, the others stay valid; none: every item of the order
   * not refunded yet (a whole-order refund, as session cancellation asks for). Asked again for the
   * same tickets it answers the refund already made.
   */
  async refundOrder(o: {
    orderId: string;
    by: RefundActor;
    reason?: string;
    now: Date;
    ticketIds?: string[];
  }): Promise<RefundRecord> {
    const refund = await inTransaction(this.d.db, async (conn) => {
      const order = await orders.byId(conn, o.orderId, { lock: true });
      if (!order) throw appError('NOT_FOUND', undefined, '订单不存在');
      // An exchange order holds only the price difference; the fan is told before exchanging
      // that the new tickets are not refundable (an operator or a session cancel refunds them,
      // exchanges/family-refund.ts). Before, the fan met a missing payment or REFUND_EXCEEDS_PAID.
      const exchanged = (await exchangeOriginalNo(conn, order.id)) !== undefined;
      if (o.by.kind === 'buyer' && exchanged)
        throw appError('REFUND_NOT_ALLOWED', undefined, '改签所得门票不支持退票');
      // A ticket named by an exchange that may still complete is not refunded meanwhile (its
      // exchange would give it up): the fan pays or lets the exchange order expire first.
      await freeCancelledExchanges(conn, order.id);
      const pick = pickItems(await refundableItems(conn, order.id), o.ticketIds);
      if (pick.kind === 'again') {
        const again = pick.refundId && (await refunds.byId(conn, pick.refundId));
        if (!again) throw appError('ORDER_STATE_INVALID', undefined, '订单当前状态不能退票');
        return again;
      }
      if (order.status !== ORDER_STATUS.TICKETED && order.status !== ORDER_STATUS.PAID)
        throw appError('ORDER_STATE_INVALID', undefined, '订单当前状态不能退票');
      if (pick.items.some((i) => i.in_exchange)) throw appError('EXCHANGE_IN_PROGRESS');
      const itemIds = pick.items.map((i) => i.id);
      await this.refuseIfCheckedIn(
        conn,
        order.id,
        o.ticketIds ? itemIds : undefined,
        o.by.kind !== 'system' ? itemIds : [],
      );
      // An exchange order's tickets are paid by its own payment and its original's (an
      // operator's or a cancellation's refund gives each its share back).
      if (exchanged) {
        const first = await refundExchangeItems(conn, order, pick.items, {
          by: `${o.by.kind}:${o.by.id}`,
          reason: o.reason ?? '',
          now: o.now,
        });
        await moveItemTickets(conn, itemIds, TICKET_LIFECYCLE.holdForRefund);
        return first;
      }
      const payment = await this.d.payments.orderPaymentLocked(conn, order.id);
      if (!payment) throw appError('ORDER_STATE_INVALID', undefined, '未找到该订单的支付记录');
      const grossFen = pick.items.reduce((sum, i) => sum + i.price_fen, 0);
      const feeFen = o.by.kind === 'buyer' ? await this.buyerFee(conn, order, grossFen, o.now) : 0;
      const seq = await nextRefundSeq(conn, payment.id);
      const money = { amountFen: grossFen - feeFen, feeFen, seq };
      const { refund: r } = await this.create(
        conn,
        order,
        payment,
        'order',
        money,
        o.reason ?? '',
        o.by,
        o.now,
      );
      await addRefundItems(conn, r.id, order.id, pick.items);
      // Every fen accounted for: what this payment's refunds give back, asked in MySQL in this
      // transaction under the payment's lock, never exceeds what was paid (else all rolls back).
      if ((await refundedOrOpenFen(conn, payment.id)) > payment.amountFen)
        throw appError('REFUND_EXCEEDS_PAID');
      // Inadmissible at once, in the refund's own transaction. A paid order has no tickets yet:
      // the tickets consumer sees this refund under the order lock and issues them REFUNDING.
      await moveItemTickets(conn, itemIds, TICKET_LIFECYCLE.holdForRefund);
      return r;
    });
    this.d.relay.nudge();
    return refund;
  }

  /**
   * A checked-in ticket is never refunded. The tickets are locked first, then check-ins looked
   * for: check-in admits under the ticket's row lock, so none can commit between this check and
   * the refund's ticket update (a later scan sees REFUNDING). A method of its own so the race
   * test can take the locks away and watch the race it stops (refund.admission.test.ts).
   * itemIds: the chosen tickets' items (a per-ticket refund); none: the whole order.
   * notTransferred: the items that must not be transferred or on offer (all but a session cancel's).
   */
  protected async refuseIfCheckedIn(
    conn: Conn,
    orderId: string,
    itemIds?: string[],
    notTransferred: string[] = [],
  ): Promise<void> {
    const ticketIds = itemIds ? await lockItemTickets(conn, itemIds) : await lockOrderTickets(conn, orderId);
    if ((await admittedCount(conn, ticketIds)) > 0)
      throw itemIds
        ? appError('TICKET_CHECKED_IN')
        : appError('ORDER_STATE_INVALID', undefined, '门票已检票入场，不能退票');
    // Under the same ticket locks: no offer or acceptance can commit between this and the update.
    await refuseIfTransferred(conn, notTransferred);
  }

  /**
   * The buyer's fee under the show's tiers (guards.ts). A method of its own, between the refund's
   * checks and its ticket update, so the race tests can pause a refund there.
   */
  protected buyerFee(conn: Conn, order: OrderRecord, amountFen: number, now: Date): Promise<number> {
    return feeUnderTiers(conn, order, amountFen, now);
  }

  /**
   * In the caller's transaction: refund a whole payment we must not keep (late, duplicate, in
   * another currency). Idempotent: one refund per payment and kind (a repeat answers it).
   */
  async refundPaymentInTx(
    conn: Conn,
    order: OrderRecord,
    payment: PaidMoney,
    kind: PaymentRefundKind,
    now: Date,
  ): Promise<RefundRecord> {
    const { reason, template } = PAYMENT_REFUND[kind];
    const { refund: r, created } = await this.create(
      conn,
      order,
      payment,
      kind,
      { amountFen: payment.amountFen, feeFen: 0, seq: 1 },
      reason,
      { kind: 'system', id: kind },
      now,
    );
    if (created)
      await enqueue(conn, 'notice.send', order.id, { userId: order.userId, template, orderId: order.id });
    return r;
  }

  /**
   * The full refund of a payment taken in another currency, made now if it has none (rows
   * recorded before such refunds were automatic). Locks as applyTransaction does: order, then
   * payment. undefined when the payment is not such money, or was refunded in full already.
   */
  async refundForeignPayment(paymentId: string, now: Date): Promise<RefundRecord | undefined> {
    const seen = await this.d.payments.byId(this.d.db, paymentId);
    if (seen?.outcome !== 'wrong_currency') return undefined;
    const refund = await inTransaction(this.d.db, async (conn) => {
      const order = (await orders.byId(conn, seen.orderId, { lock: true }))!;
      const payment = (await this.d.payments.byId(conn, paymentId, true))!;
      if (payment.refundedFen >= payment.amountFen) return undefined;
      return this.refundPaymentInTx(conn, order, payment, 'currency', now);
    });
    this.d.relay.nudge();
    return refund;
  }

  private async create(
    conn: Conn,
    order: OrderRecord,
    payment: PaidMoney,
    kind: RefundKind,
    money: { amountFen: number; feeFen: number; seq: number },
    reason: string,
    by: RefundActor,
    now: Date,
  ): Promise<{ refund: RefundRecord; created: boolean }> {
    const { refund, created } = await createRefund(conn, {
      orderId: order.id,
      paymentId: payment.id,
      kind,
      ...money,
      outRefundNo: outRefundNo(order.orderNo, payment.id, kind, money.seq),
      reason,
      requestedBy: `${by.kind}:${by.id}`,
      now,
    });
    if (created) await enqueue(conn, 'refund.requested', refund.id, { refundId: refund.id });
    return { refund, created };
  }

  /** Consumer of refund.requested: asks WeChat to refund (idempotent by out_refund_no). */
  async execute(refundId: string, now: Date): Promise<void> {
    const refund = await refunds.byId(this.d.db, refundId);
    if (!refund || refund.status !== REFUND_STATUS.REQUESTED) return;
    const payment = (await this.d.payments.byId(this.d.db, refund.paymentId))!;
    // The payment's own order is WeChat's trade: a session cancel refunds an exchange order's
    // value partly on its original order's payment (exchanges/family-refund.ts).
    const order = (await orders.byId(this.d.db, payment.orderId))!;
    let wx: WxRefund;
    try {
      wx = await this.d.pay.refund({
        orderNo: order.orderNo,
        // A second payment, or one in another currency, is not the order's payment: refund that
        // exact transaction.
        ...(refund.kind === 'duplicate' || refund.kind === 'currency'
          ? { transactionId: payment.transactionId }
          : {}),
        outRefundNo: refund.outRefundNo,
        refundFen: refund.amountFen,
        totalFen: payment.amountFen,
        reason: refund.reason || '退票',
      });
    } catch (err) {
      // Not accepted (SYSTEM_ERROR, NOT_ENOUGH, network): the refund stays REQUESTED and is sent
      // again, with the same out_refund_no, by the consumer's retries and then the sweeper.
      await this.noteFailure(refund, err, now);
      throw err;
    }
    // Conditional: a concurrent send (consumer and sweeper) moves it once.
    await tryMove(this.d.db, 'refunds', refund.id, REFUND_LIFECYCLE.accept, { refund_id: wx.refund_id });
    if (wx.status === 'SUCCESS') await this.applyResult(wx, now);
  }

  /**
   * WeChat's verdict, from a notification or a query. Final outcomes are applied once (the
   * refund row is locked); SUCCESS voids the tickets and gives the seats back to sale.
   */
  async applyResult(wx: WxRefund, now: Date): Promise<'applied' | 'duplicate' | 'pending' | 'unknown'> {
    const status = wx.refund_status ?? wx.status ?? '';
    if (!['SUCCESS', 'ABNORMAL', 'CLOSED'].includes(status)) return 'pending';
    const result = await inTransaction(this.d.db, async (conn) => {
      // Lock order: the order, then the refund, then the tickets, as the refund request and the
      // tickets consumer do; so a CLOSED here and a ticket issue there cannot cross.
      const seen = await refunds.byOutRefundNo(conn, wx.out_refund_no);
      if (!seen) return 'unknown' as const;
      await orders.byId(conn, seen.orderId, { lock: true });
      const refund = (await refunds.byId(conn, seen.id, { lock: true }))!;
      if (refund.status === REFUND_STATUS.SUCCESS || refund.status === REFUND_STATUS.CLOSED)
        return 'duplicate' as const;
      if (wx.amount && wx.amount.refund !== refund.amountFen)
        throw new Error(`refund ${refund.outRefundNo}: amount ${wx.amount.refund} != ${refund.amountFen}`);
      if (status === 'ABNORMAL') {
        // Not final, and nothing WeChat retries by itself: an operator takes over, the fan is told.
        const moved = await tryMove(conn, 'refunds', refund.id, REFUND_LIFECYCLE.abnormal);
        if (!moved) return 'duplicate' as const;
        await this.handOver(conn, refund, 'abnormal', now);
        return 'applied' as const;
      }
      if (status === 'CLOSED') {
        await move(conn, 'refunds', refund.id, REFUND_LIFECYCLE.close, { finished_at: now });
        if (refund.kind === 'order' && (await exchangeOriginalNo(conn, refund.orderId))) {
          // An exchange order's refund is split over its family's payments (exchanges/
          // family-refund.ts), whose other shares may be back with the fan already: its tickets
          // stay held and an operator decides (valid again, the fan would keep both).
          await this.handOver(conn, refund, 'closed', now);
        } else if (refund.kind === 'order') {
          // Its tickets are good again, and may be refunded again (by a new request).
          const items = await itemsOfRefund(conn, refund.id);
          await moveItemTickets(
            conn,
            items.map((i) => i.id),
            TICKET_LIFECYCLE.refundClosed,
          );
          await freeRefundItems(conn, refund.id);
          // In a cancelled session nobody asks again (the cancellation reached this order once):
          // the tickets are not admissible there, and the money waits for an operator.
          if (await orderSessionCancelled(conn, refund.orderId))
            await this.handOver(conn, refund, 'closed', now);
        } else {
          // Money we must give back and nobody will ask for again: an operator decides (before,
          // the row was closed and the money stayed, unseen).
          await this.handOver(conn, refund, 'closed', now);
        }
        return 'applied' as const;
      }
      await this.succeed(conn, refund, now);
      return 'applied' as const;
    });
    if (result === 'unknown')
      this.d.log.warn({ outRefundNo: wx.out_refund_no }, 'refund result for an unknown refund (suspicious)');
    this.d.relay.nudge();
    return result;
  }

  private async succeed(conn: Conn, refund: RefundRecord, now: Date): Promise<void> {
    await move(conn, 'refunds', refund.id, REFUND_LIFECYCLE.succeed, { finished_at: now });
    await resolveRefundCase(conn, refund.id, { by: 'system', resolution: 'refunded', now });
    await this.d.payments.addRefunded(conn, refund.paymentId, refund.amountFen);
    if (refund.kind !== 'order') return;
    const order = (await orders.byId(conn, refund.orderId, { lock: true }))!;
    // Only this refund's tickets and seats: the order's other tickets stay valid.
    const items = await itemsOfRefund(conn, refund.id);
    await moveItemTickets(
      conn,
      items.map((i) => i.id),
      TICKET_LIFECYCLE.void,
      now,
    );
    await releaseItemClaims(conn, order, items);
    const whole = (await itemsNotRefunded(conn, order.id)) === 0;
    if (whole) {
      // Every item refunded: the order is, and its real-name IDs (held per order) are free.
      await move(conn, 'orders', order.id, ORDER_LIFECYCLE.refund);
      await releaseAttendeeClaims(conn, order.id);
    }
    const units = items.map((i) => i.seat_id ?? String(i.slot_no));
    await enqueue(conn, 'inventory.release', order.id, {
      sessionId: order.sessionId,
      orderId: order.id,
      ...(whole ? {} : { units }),
    });
    await enqueue(conn, 'notice.send', order.id, {
      userId: order.userId,
      template: 'refunded',
      orderId: order.id,
    });
  }

  /** Hands a refund to an operator (refund_cases) and tells the fan, once. */
  async handOver(conn: Conn, refund: RefundRecord, reason: RefundCaseReason, now: Date): Promise<void> {
    if (!(await openRefundCase(conn, refund, reason, now))) return;
    const order = (await orders.byId(conn, refund.orderId))!;
    await enqueue(conn, 'notice.send', `case-${refund.id}`, {
      userId: order.userId,
      template: 'refund_delayed',
      orderId: order.id,
    });
    this.d.log.error(
      { refundId: refund.id, outRefundNo: refund.outRefundNo, reason },
      'refund handed to an operator',
    );
  }

  /** Counts a failed send; after RESEND_CASE_AFTER of them an operator is told as well. */
  private async noteFailure(refund: RefundRecord, err: unknown, now: Date): Promise<void> {
    const code = err instanceof WechatPayError ? err.code : 'NETWORK';
    const attempts = await noteRefundFailure(
      this.d.db,
      refund.id,
      err instanceof Error ? err.message : String(err),
      new Date(now.getTime() + resendDelayMs(code, refund.attempts ?? 0)),
    );
    if (attempts === RESEND_CASE_AFTER)
      await inTransaction(this.d.db, (conn) => this.handOver(conn, refund, 'stuck', now));
  }

  /** Refunds WeChat accepted but never reported on, and those with an operator (refunds/check.ts). */
  checkProcessing(now: Date, olderThanMs: number, pageSize?: number): Promise<number> {
    return this.check.run(now, olderThanMs, pageSize);
  }
}
