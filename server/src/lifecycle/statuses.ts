/**
 * The statuses of orders, refunds and tickets, named once, here beside the transition tables
 * that move them. The domains re-export them (orders/types, refunds/repo, tickets/status), so
 * the lifecycle depends on no domain and every domain on the lifecycle, never both ways.
 */
export const ORDER_STATUS = { PENDING: 1, PAID: 2, TICKETED: 3, CANCELLED: 4, REFUNDED: 5 } as const;

export const REFUND_STATUS = { REQUESTED: 0, PROCESSING: 1, SUCCESS: 2, ABNORMAL: 3, CLOSED: 4 } as const;

/**
 * Only VALID is admissible at a gate; REFUNDING holds a ticket while a refund of its order is
 * open (requested, at WeChat, or abnormal), VOIDED once refunded. TRANSFERRING: a transfer offer
 * is open (no entry, no refund until it is accepted, cancelled or expired); TRANSFERRED: the
 * giver's ticket once the receiver accepted (a new ticket replaced it; never admissible again).
 * EXCHANGED: given up for a new ticket by an exchange (改签, server/src/exchanges).
 */
export const TICKET_STATUS = {
  VALID: 1,
  VOIDED: 2,
  REFUNDING: 3,
  TRANSFERRED: 4,
  TRANSFERRING: 5,
  EXCHANGED: 6,
} as const;

/** An exchange (改签): its order not paid yet, done (tickets moved), or failed (refunded). */
export const EXCHANGE_STATUS = { PENDING: 0, DONE: 1, FAILED: 2 } as const;

/**
 * A waiting-list entry (waitlist/): WAITING in line, OFFERED (its pending order holds returned
 * units for the fan), then one of FULFILLED (paid), LAPSED (expired unpaid), DECLINED, LEFT,
 * ENDED (could not be offered any more: purchase limit reached, or the sale stopped).
 */
export const WAITLIST_STATUS = {
  WAITING: 1,
  OFFERED: 2,
  FULFILLED: 3,
  LAPSED: 4,
  DECLINED: 5,
  LEFT: 6,
  ENDED: 7,
} as const;
