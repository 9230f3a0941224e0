export type PaymentOutcome =
  | 'applied'
  | 'late'
  | 'late_applied'
  | 'late_refund'
  | 'duplicate'
  /** Paid in a currency other than CNY: never a payment of the order, refunded in full. */
  | 'wrong_currency';

/** A payments row as mysql2 hands it (BIGINT ids as strings); only the repos see it. */
export interface PaymentRow {
  id: string;
  order_id: string;
  transaction_id: string;
  amount_fen: number;
  /** What WeChat took it in (CNY unless a notification said otherwise). */
  currency: string;
  refunded_fen: number;
  outcome: PaymentOutcome;
}
