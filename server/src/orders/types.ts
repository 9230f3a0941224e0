import type { OrderStatus } from '@showtix/shared-types';
import type { SealedAttendee, SealedPhone } from '../attendees/crypto';
import type { SealedColumnsRow } from '../attendees/repo';

import { ORDER_STATUS } from '../lifecycle/statuses';

export { ORDER_STATUS };

/** Orders that hold their units (claims in MySQL, holds or sales in Redis). */
export const LIVE_ORDER_STATUSES = [ORDER_STATUS.PENDING, ORDER_STATUS.PAID, ORDER_STATUS.TICKETED];

export const ORDER_STATUS_NAME: Record<number, OrderStatus> = {
  1: 'pending',
  2: 'paid',
  3: 'ticketed',
  4: 'cancelled',
  5: 'refunded',
};

export interface NewOrderItem {
  seatId?: string;
  zoneId?: string;
  slotNo?: number;
  tierId: string;
  priceFen: number;
}

/** An order ready to be written: ids, prices and expiry already decided. */
export interface NewOrder {
  id: string;
  orderNo: string;
  userId: string;
  sessionId: string;
  amountFen: number;
  quantity: number;
  purchaseLimit: number;
  idempotencyKey: string | null;
  requestHash: string;
  expireAt: Date;
  createdAt: Date;
  items: NewOrderItem[];
  showId: string;
  /** Per-user limit across the show (null: none). */
  showLimit: number | null;
  /** Real-name sessions: one attendee per item, in item order. */
  attendees: SealedAttendee[];
  /** The waiting room's admission token (its id) the order used. */
  admissionJti: string | null;
  /** Until when that token could be presented (its use is recorded until then). */
  admissionUntil: Date | null;
  /** The buyer's 联系手机 (null: the request gave none). */
  contactPhone: SealedPhone | null;
}

/** A stored order, as orders/repo.ts maps its row (orders/rows.ts) for services and views. */
export interface OrderRecord {
  id: string;
  orderNo: string;
  userId: string;
  sessionId: string;
  status: number;
  amountFen: number;
  quantity: number;
  idempotencyKey: string | null;
  requestHash: string | null;
  expireAt: Date;
  createdAt: Date;
  paidAt: Date | null;
  cancelledAt: Date | null;
  cancelReason: string | null;
  prepayId: string | null;
  admissionJti: string | null;
  contactPhoneMasked: string | null;
  /** 'comp': a complimentary order (comp/), issued free on a seat the organiser held back. */
  channel: 'miniprogram' | 'comp';
}

/** An order_items row: one seat, or one unit of a zone, at its tier's price. */
export interface OrderItemRow {
  id: string;
  order_id: string;
  session_id: string;
  seat_id: string | null;
  zone_id: string | null;
  slot_no: number | null;
  tier_id: string;
  price_fen: number;
}

/** An order_attendees row: a real-name attendee, sealed (attendees/crypto.ts), at its item's position. */
export interface OrderAttendeeRow extends SealedColumnsRow {
  order_id: string;
  position: number;
}

/** The latest refund of an order, as the order views show it (camelCase). */
export interface RefundSummary {
  status: number;
  amountFen: number;
  feeFen: number;
  createdAt: Date;
  /** When WeChat Pay answered the refund (succeeded, or closed/abnormal). */
  finishedAt: Date | null;
}
