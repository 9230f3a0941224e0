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

/** An order item joined to its seat or zone, attendee, ticket and latest refund (itemsOf). */
export interface ItemRow {
  order_id: string;
  seat_id: string | null;
  zone_id: string | null;
  slot_no: number | null;
  tier_id: string;
  price_fen: number;
  section: string | null;
  row_label: string | null;
  seat_number: string | null;
  zone_name: string | null;
  /** The item's real-name attendee (same position among the order's items), masked. */
  attendee_name: string | null;
  attendee_id_masked: string | null;
  /**
   * The item's ticket number once issued (the buyer's own: after a transfer the item's live ticket
   * is the receiver's, whose number the buyer never sees), and its latest order refund's status.
   */
  ticket_no: string | null;
  /** The buyer's ticket's status (4 transferred, 5 on offer: see lifecycle/statuses.ts). */
  ticket_status: number | null;
  refund_status: number | null;
}

/** An order refund's summary columns (orders/repo.ts refundsOf). */
export interface RefundSummaryRow {
  status: number;
  amount_fen: number;
  fee_fen: number;
  created_at: Date;
  /** When WeChat Pay answered the refund (succeeded, or closed/abnormal). */
  finished_at: Date | null;
}
