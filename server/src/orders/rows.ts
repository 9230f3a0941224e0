/** An orders row as mysql2 hands it (BIGINT ids as strings); only the repos see it. */
export interface OrderRow {
  id: string;
  order_no: string;
  user_id: string;
  session_id: string;
  status: number;
  amount_fen: number;
  quantity: number;
  idempotency_key: string | null;
  request_hash: string | null;
  expire_at: Date;
  created_at: Date;
  paid_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: string | null;
  prepay_id: string | null;
  admission_jti: string | null;
  contact_phone_masked: string | null;
  /** 'comp': a complimentary order (comp/), issued free on a seat the organiser held back. */
  channel: 'miniprogram' | 'comp';
}
