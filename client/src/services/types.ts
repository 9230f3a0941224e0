/**
 * Response shapes of endpoints that the API contract fixes but shared-types does not type yet
 * (login, payment, tickets). Move them to @showtix/shared-types when it exports them.
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

/** An order as the list/detail endpoints answer it (refund state included once asked for). */
export type FanOrder = Order;

/** valid, voided, refunding today; the check-in issue adds used. */
export type TicketStatus = 'valid' | 'voided' | 'refunding' | 'used' | (string & {});

export interface Ticket {
  ticketId: string;
  orderNo: string;
  sessionId: string;
  seatId?: string;
  zoneId?: string;
  status: TicketStatus;
  qr: string;
  /** Display fields the server adds; the wallet falls back to the order and session if absent. */
  showTitle?: string;
  venueName?: string;
  startsAt?: string;
  seat?: { section: string; row: string; number: string };
  zoneName?: string;
}
