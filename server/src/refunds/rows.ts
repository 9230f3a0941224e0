import type { RefundKind } from './repo';

/** A refunds row as mysql2 hands it (BIGINT ids as strings); only the repos see it. */
export interface RefundRow {
  id: string;
  order_id: string;
  payment_id: string;
  kind: RefundKind;
  /** Numbers the order refunds of a payment (1 for the first and for every other kind). */
  seq?: number;
  out_refund_no: string;
  refund_id: string | null;
  amount_fen: number;
  fee_fen: number;
  status: number;
  reason: string | null;
  requested_by: string;
  created_at: Date;
  finished_at: Date | null;
  /** Sends WeChat refused so far (absent on rows read before migration 0010's columns existed). */
  attempts?: number;
}
