import type { RowDataPacket } from 'mysql2/promise';
import type { Logger } from 'pino';
import { inTransaction, type Db } from '../db/pool';
import { REFUND_STATUS } from '../lifecycle/statuses';
import { enqueue } from '../outbox/repo';
import { findPayment } from '../payments/repo';
import { refundedOrOpenFen } from '../refunds/items-repo';
import { createRefund } from '../refunds/repo';
import { outRefundNo } from '../refunds/naming';
import type { ChangeRow } from './repo';

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
export async function returnFees(db: Db, c: ChangeRow, now: Date, log: Logger): Promise<number> {
  const [rows] = await db.query<RowDataPacket[]>(
    `SELECT r.id, r.payment_id, r.seq, r.fee_fen, o.order_no, o.id AS order_id
       FROM refunds r JOIN orders o ON o.id = r.order_id
      WHERE o.session_id = ? AND r.kind = 'order' AND r.fee_fen > 0 AND r.requested_by LIKE 'buyer:%'
        AND r.status = ? AND r.finished_at >= ?
        AND NOT EXISTS (SELECT 1 FROM refunds f WHERE f.payment_id = r.payment_id AND f.kind = 'fee' AND f.seq = r.seq)
      ORDER BY r.id LIMIT ?`,
    [c.session_id, REFUND_STATUS.SUCCESS, c.created_at, FEE_BATCH],
  );
  let asked = 0;
  for (const r of rows) {
    const ok = await inTransaction(db, async (conn) => {
      // Under the payment's lock, as every refund of it: never more back than was paid.
      const payment = (await findPayment(conn, 'id = ?', [r.payment_id], true))!;
      const { refund, created } = await createRefund(conn, {
        orderId: String(r.order_id),
        paymentId: payment.id,
        kind: 'fee',
        seq: Number(r.seq),
        outRefundNo: outRefundNo(String(r.order_no), payment.id, 'fee', Number(r.seq)),
        amountFen: Number(r.fee_fen),
        feeFen: 0,
        reason: '场次取消，退还退票手续费',
        requestedBy: `system:cancel-${c.id}`,
        now,
      });
      if ((await refundedOrOpenFen(conn, payment.id)) > payment.amount_fen)
        throw new Error(`fee refund of refund ${r.id}: refunds would exceed payment ${payment.id}`);
      if (created) await enqueue(conn, 'refund.requested', refund.id, { refundId: refund.id });
      return true;
    }).catch((err: unknown) => {
      // One fee that cannot be refunded must not stop the others, nor the cancellation's run.
      log.error({ err, refundId: String(r.id), changeId: c.id }, 'fee refund of a cancelled session failed');
      return false;
    });
    if (ok) asked++;
  }
  return asked;
}
