/** An exchanges row as mysql2 hands it (BIGINT ids as strings); only the repos see it. */
export interface ExchangeRow {
  id: string;
  user_id: string;
  original_order_id: string;
  exchange_order_id: string;
  from_session_id: string;
  to_session_id: string;
  status: number;
  old_fen: number;
  new_fen: number;
  diff_fen: number;
  refund_id: string | null;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

/** An exchange with what its views need: order numbers, statuses, ticket numbers, refund. */
export interface ExchangeViewRow extends ExchangeRow {
  original_order_no: string;
  exchange_order_no: string;
  exchange_order_status: number;
  old_ticket_nos: string | null;
  new_ticket_nos: string | null;
  refund_status: number | null;
  refund_fen: number | null;
}
