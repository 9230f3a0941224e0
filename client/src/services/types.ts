/**
 * Response shapes of endpoints that the API contract fixes but shared-types does not type yet
 * (login, payment, refund, tickets). Move them to @showtix/shared-types once the server has them.
 */
import type { Order } from '@showtix/shared-types';

export interface LoginResponse {
  token: string;
  user: { id: string };
}

export interface PayParams {
  timeStamp: string;
  nonceStr: string;
  package: string;
  signType: string;
  paySign: string;
}

export interface PayResponse {
  prepayId: string;
  payParams: PayParams;
  /** The simulator's cashier page, for the H5 build (absent in production WeChat). */
  cashierUrl?: string;
}

export type RefundStatus = 'processing' | 'succeeded' | 'failed' | string;

/** An order as the list/detail endpoints answer it; refund details arrive once refunds exist. */
export interface FanOrder extends Order {
  refund?: { status: RefundStatus; amountFen?: number; feeFen?: number; reason?: string };
}

export type TicketStatus = 'valid' | 'used' | 'refunded' | 'void' | string;

export interface Ticket {
  ticketId: string;
  orderNo: string;
  sessionId: string;
  seatId?: string;
  zoneId?: string;
  status: TicketStatus;
  qr: string;
  /** Optional extras the server may add; the ticket wallet fills gaps from the order. */
  section?: string;
  row?: string;
  number?: string;
  zoneName?: string;
}
