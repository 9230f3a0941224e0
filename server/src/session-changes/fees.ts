import type { Logger } from 'pino';
import { inTransaction, type Db } from '../db/pool';
import { enqueue } from '../outbox/repo';
import { payments } from '../payments/repo';
import { refundedOrOpenFen } from '../refunds/items-repo';
import { createRefund } from '../refunds/repo';
import { outRefundNo } from '../refunds/naming';
import { feesToReturn } from './fees-repo';
import type { ChangeRecord } from './repo';

/** Fee-bearing refunds looked at per pass. */
const FEE_BATCH = 100;

/**
 * A cancelled session refunds in full: a buyer's refund of it that kept a fee and was not done
 * before the cancellation (in flight then, or asked after) gets its fee back by a refund of its
 * own (kind 'fee', the buyer refund's number: one per refund, a repeat answers it), once that
 * refund succeeded: while it is in flight WeChat may still close it, and then its tickets (and
 * the whole payment) are refunded by the cancellation instead. The cancellation stays open until
 * none is in flight (run.ts settle). A fee refund that cannot be made is logged and the others go
 * on. Returns how many fee refunds were asked.
 */
export async function returnFees(db: Db, c: ChangeRecord, now: Date, log: Logger): Promise<number> {
  const rows = await feesToReturn(db, c, FEE_BATCH);
  let asked = 0;
  for (const r of rows) {
    const ok = await inTransaction(db, async (conn) => {
      // Under the payment's lock, as every refund of it: never more back than was paid.
      const payment = (await payments.byId(conn, r.paymentId, { lock: true }))!;
      const { refund, created } = await createRefund(conn, {
        orderId: r.orderId,
        paymentId: payment.id,
        kind: 'fee',
        seq: r.seq,
        outRefundNo: outRefundNo(r.orderNo, payment.id, 'fee', r.seq),
        amountFen: r.feeFen,
        feeFen: 0,
        reason: '场次取消，退还退票手续费',
        requestedBy: `system:cancel-${c.id}`,
        now,
      });
      if ((await refundedOrOpenFen(conn, payment.id)) > payment.amountFen)
        throw new Error(`fee refund of refund ${r.refundId}: refunds would exceed payment ${payment.id}`);
      if (created) await enqueue(conn, 'refund.requested', refund.id, { refundId: refund.id });
      return true;
    }).catch((err: unknown) => {
      // One fee that cannot be refunded must not stop the others, nor the cancellation's run.
      log.error({ err, refundId: r.refundId, changeId: c.id }, 'fee refund of a cancelled session failed');
      return false;
    });
    if (ok) asked++;
  }
  return asked;
}
