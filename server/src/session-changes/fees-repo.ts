import type { RowDataPacket } from 'mysql2/promise';
import type { Db } from '../db/pool';
import type { Packet } from '../db/rows';
import { REFUND_STATUS } from '../lifecycle/statuses';
import type { ChangeRecord } from './repo';

/** COUNT comes back as a string (BIGINT): read through Number(). */
type Agg = string | number;

/*
 * A cancelled session's refund fees: buyers who refunded before the cancellation kept a fee, and
 * the cancellation gives it back (fees.ts). Their SQL, apart from the changes' own (repo.ts).
 */

/**
 * Fees a cancellation still owes: buyers' refunds of the session that kept a fee and are in
 * flight (requested, processing: the fee comes back once they are done), or that succeeded since
 * the cancellation and have no fee refund yet (feesToReturn asks it on the next pass). One
 * query, so a refund that succeeds between a pass's returnFees and its settle is counted either
 * way, and the cancellation is not closed with its fee kept.
 */
export async function feesOwed(db: Db, change: ChangeRecord): Promise<number> {
  const [rows] = await db.query<Packet<{ n: Agg }>[]>(
    `SELECT COUNT(*) AS n FROM refunds r JOIN orders o ON o.id = r.order_id
      WHERE o.session_id = ? AND r.kind = 'order' AND r.fee_fen > 0 AND r.requested_by LIKE 'buyer:%'
        AND (r.status IN (?)
             OR (r.status = ? AND r.finished_at >= ?
                 AND NOT EXISTS (SELECT 1 FROM refunds f WHERE f.payment_id = r.payment_id AND f.kind = 'fee' AND f.seq = r.seq)))`,
    [
      change.sessionId,
      [REFUND_STATUS.REQUESTED, REFUND_STATUS.PROCESSING],
      REFUND_STATUS.SUCCESS,
      change.createdAt,
    ],
  );
  return Number(rows[0]!.n);
}

/** A buyer's refund with a fee to give back, with its order's number (refunds joined to orders). */
interface FeeToReturnRow extends RowDataPacket {
  id: string;
  payment_id: string;
  seq: number;
  fee_fen: number;
  order_no: string;
  order_id: string;
}

export interface FeeToReturn {
  refundId: string;
  paymentId: string;
  seq: number;
  feeFen: number;
  orderNo: string;
  orderId: string;
}

/**
 * Buyers' refunds of the cancelled session that kept a fee, succeeded since the cancellation
 * and have no fee refund yet: the next `limit` by id.
 */
export async function feesToReturn(db: Db, change: ChangeRecord, limit: number): Promise<FeeToReturn[]> {
  const [rows] = await db.query<FeeToReturnRow[]>(
    `SELECT r.id, r.payment_id, r.seq, r.fee_fen, o.order_no, o.id AS order_id
       FROM refunds r JOIN orders o ON o.id = r.order_id
      WHERE o.session_id = ? AND r.kind = 'order' AND r.fee_fen > 0 AND r.requested_by LIKE 'buyer:%'
        AND r.status = ? AND r.finished_at >= ?
        AND NOT EXISTS (SELECT 1 FROM refunds f WHERE f.payment_id = r.payment_id AND f.kind = 'fee' AND f.seq = r.seq)
      ORDER BY r.id LIMIT ?`,
    [change.sessionId, REFUND_STATUS.SUCCESS, change.createdAt, limit],
  );
  return rows.map((r) => ({
    refundId: String(r.id),
    paymentId: String(r.payment_id),
    seq: Number(r.seq),
    feeFen: Number(r.fee_fen),
    orderNo: String(r.order_no),
    orderId: String(r.order_id),
  }));
}
