import type { PaymentOutcome } from './repo';

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
