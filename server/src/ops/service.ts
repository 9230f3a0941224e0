import { REFUND_CASE_RESOLUTIONS, type OpsOverview, type RefundCaseResolution } from '@showtix/shared-types';
import type { Db } from '../db/pool';
import type { Broker } from '../outbox/broker';
import type { RefundService } from '../refunds/service';
import type { TicketDeps } from '../tickets/service';
import type { WechatPay } from '../wechat/pay';
import { appError } from '../errors';
import { PAID_TICKETS_GRACE_MS, REFUND_RESEND_AFTER_MS } from '../jobs/recovery';
import { parkedDeadLetters, resolveDeadLetter } from '../jobs/repo';
import { REFUND_STATUS, resolveRefundCase } from '../refunds/repo';
import { issueTickets } from '../tickets/service';
import { noticeProblems } from '../notices/repo';
import { recordAudit } from '../audit/repo';
import type { Actor } from '../audit/actor';
import * as repo from './repo';

/** What the operator's repairs use of the app. */
export type OpsDeps = TicketDeps & { db: Db; broker: Broker; pay: WechatPay; refunds: RefundService };

/** How an operator closed a refund case: paid the fan by other means, or nothing was owed. */
export const CASE_RESOLUTIONS = REFUND_CASE_RESOLUTIONS;
export type CaseResolution = RefundCaseResolution;

/**
 * The operations page: what recovery could not settle by itself, and the repairs an operator
 * can make. Each repair is the same idempotent step the recovery jobs take, and is audited.
 */
export class OpsService {
  constructor(private readonly d: OpsDeps) {}

  async overview(now: Date): Promise<OpsOverview> {
    const queues = await this.d.broker.deadCounts().catch(() => null); // null: RabbitMQ unreachable
    const parked = await parkedDeadLetters(this.d.db, 200);
    return {
      deadLetters: {
        queues,
        parked: parked.map((p) => ({
          id: p.id,
          queue: p.queue,
          messageId: p.messageId,
          payload: p.payload,
          error: p.error,
          redrives: p.redrives,
          parkedAt: p.parkedAt.toISOString(),
        })),
      },
      stuckPayments: await repo.stuckPayments(this.d.db, new Date(now.getTime() - PAID_TICKETS_GRACE_MS)),
      stuckRefunds: await repo.stuckRefunds(this.d.db, new Date(now.getTime() - REFUND_RESEND_AFTER_MS)),
      refundCases: await repo.openRefundCases(this.d.db),
      foreignCurrency: await repo.foreignCurrencyPayments(this.d.db),
      noticeProblems: await noticeProblems(this.d.db),
    };
  }

  private audit(who: Actor, action: string, entityType: string, entityId: string, after: unknown, now: Date) {
    return recordAudit(this.d.db, { actor: who, action, entityType, entityId, after }, now);
  }

  /** Sends a parked message to its consumer again ('requeue') or drops it ('discard'). */
  async deadLetter(who: Actor, id: string, action: 'requeue' | 'discard', now: Date) {
    const m = await repo.deadLetterById(this.d.db, id);
    if (!m) throw appError('NOT_FOUND', undefined, '消息不存在');
    if (m.state !== 'parked') throw appError('ORDER_STATE_INVALID', undefined, '该消息已处理');
    if (action === 'requeue') await this.d.broker.requeue(m.queue, m.messageId, m.payload);
    await resolveDeadLetter(
      this.d.db,
      id,
      action === 'requeue' ? 'requeued' : 'discarded',
      who.username,
      now,
    );
    await this.audit(
      who,
      `ops.dead_letter.${action}`,
      'dead_letter',
      id,
      { queue: m.queue, messageId: m.messageId },
      now,
    );
    return { id, state: action === 'requeue' ? 'requeued' : 'discarded' };
  }

  /** Issues the tickets of a paid order now (what the tickets consumer does, idempotent). */
  async issueTickets(who: Actor, orderNo: string, now: Date) {
    const id = await repo.orderIdByNo(this.d.db, orderNo);
    if (!id) throw appError('NOT_FOUND', undefined, '订单不存在');
    const result = await issueTickets(this.d, id, now);
    await this.audit(who, 'ops.order.issue_tickets', 'order', orderNo, { result }, now);
    return { orderNo, result };
  }

  /**
   * Moves a stuck refund on now: a REQUESTED one is sent again (same out_refund_no), a
   * PROCESSING or ABNORMAL one is asked for its state at WeChat.
   */
  async retryRefund(who: Actor, refundId: string, now: Date) {
    const before = await repo.refundById(this.d.db, refundId);
    if (!before) throw appError('NOT_FOUND', undefined, '退款不存在');
    const error = await this.push(refundId, before.statusCode, before.outRefundNo, now);
    const after = (await repo.refundById(this.d.db, refundId))!;
    await this.audit(
      who,
      'ops.refund.retry',
      'refund',
      refundId,
      { from: before.status, to: after.status, error },
      now,
    );
    const { statusCode: _s, ...view } = after;
    return { ...view, ...(error ? { error } : {}) };
  }

  /** Sends a REQUESTED refund again, or asks WeChat for the state of any other; the error, if any. */
  private async push(refundId: string, status: number, outRefundNo: string, now: Date) {
    try {
      if (status === REFUND_STATUS.REQUESTED) await this.d.refunds.execute(refundId, now);
      else {
        const wx = await this.d.pay.queryRefund(outRefundNo);
        if (wx) await this.d.refunds.applyResult(wx, now);
      }
      return undefined;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  }

  /**
   * Money taken in another currency: its full refund is made (if it has none yet, e.g. recorded
   * before refunds were automatic) and moved on now, as retryRefund does. Idempotent.
   */
  async refundForeignPayment(who: Actor, paymentId: string, now: Date) {
    const refund = await this.d.refunds.refundForeignPayment(paymentId, now);
    if (!refund) throw appError('NOT_FOUND', undefined, '没有待退款的外币支付');
    const error = await this.push(refund.id, refund.status, refund.outRefundNo, now);
    const after = (await repo.refundById(this.d.db, refund.id))!;
    await this.audit(
      who,
      'ops.payment.refund',
      'payment',
      paymentId,
      { refundId: refund.id, to: after.status, error },
      now,
    );
    return { paymentId, refundId: refund.id, refundStatus: after.status, ...(error ? { error } : {}) };
  }

  /** An operator's decision on a refund WeChat could not complete (the explicit record). */
  async resolveCase(who: Actor, refundId: string, resolution: CaseResolution, note: string, now: Date) {
    const done = await resolveRefundCase(this.d.db, refundId, { by: who.username, resolution, note, now });
    if (!done) throw appError('NOT_FOUND', undefined, '没有待处理的退款异常');
    await this.audit(who, 'ops.refund_case.resolve', 'refund', refundId, { resolution, note }, now);
    return { refundId, state: 'resolved', resolution };
  }
}
