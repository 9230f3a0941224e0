/**
 * order: the buyer's or an admin's refund of an order; late / duplicate / currency: money we
 * cannot keep (a payment after cancellation, a second payment, a payment in another currency);
 * exchange: the difference of an exchange (改签) to cheaper seats, on the original payment, or
 * an exchange order's whole payment when its exchange failed (server/src/exchanges); fee: the fee
 * a buyer's refund kept, given back when the session was cancelled (session-changes/fees.ts).
 */
export type RefundKind = 'order' | 'late' | 'duplicate' | 'currency' | 'exchange' | 'fee';

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
