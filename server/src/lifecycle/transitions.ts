import type { Transition } from './repo';
import { EXCHANGE_STATUS, ORDER_STATUS, REFUND_STATUS, TICKET_STATUS, WAITLIST_STATUS } from './statuses';

/**
 * One home for the lifecycle: every status change of an order, a refund or a ticket is an
 * event of these tables (from-states -> to-state). The SQL is always conditional on the
 * from-states, so a row that another instance moved first is never moved twice, and `move`
 * asserts that the row really moved where the caller holds the lock and has checked.
 */
// The SQL that moves a row lives in ./repo.ts; callers keep importing it from here.
export { move, moveMany, tryMove, TransitionError, type Transition } from './repo';

export const ORDER_LIFECYCLE = {
  /** A payment applied to a live order. */
  pay: { from: [ORDER_STATUS.PENDING], to: ORDER_STATUS.PAID },
  /** The buyer gave it up, or its hold expired (after the cancel guard). */
  cancel: { from: [ORDER_STATUS.PENDING], to: ORDER_STATUS.CANCELLED },
  /** A late payment whose units could be taken again. */
  latePay: { from: [ORDER_STATUS.CANCELLED], to: ORDER_STATUS.PAID },
  /** Tickets issued. */
  issue: { from: [ORDER_STATUS.PAID], to: ORDER_STATUS.TICKETED },
  /** A complimentary order (channel 'comp', amount 0): granted by the organiser, no payment. */
  grant: { from: [ORDER_STATUS.PENDING], to: ORDER_STATUS.PAID },
  /** The organiser voided a complimentary order: no money moves, its reserved units are free again. */
  voidComp: { from: [ORDER_STATUS.TICKETED], to: ORDER_STATUS.CANCELLED },
  /** Its order refund succeeded at WeChat. */
  refund: { from: [ORDER_STATUS.PAID, ORDER_STATUS.TICKETED], to: ORDER_STATUS.REFUNDED },
} as const satisfies Record<string, Transition>;

const OPEN_REFUND = [REFUND_STATUS.REQUESTED, REFUND_STATUS.PROCESSING, REFUND_STATUS.ABNORMAL];

export const REFUND_LIFECYCLE = {
  /** WeChat accepted the request. */
  accept: { from: [REFUND_STATUS.REQUESTED], to: REFUND_STATUS.PROCESSING },
  /** WeChat could not pay it out (the fan's card): an operator takes over. */
  abnormal: { from: [REFUND_STATUS.REQUESTED, REFUND_STATUS.PROCESSING], to: REFUND_STATUS.ABNORMAL },
  succeed: { from: OPEN_REFUND, to: REFUND_STATUS.SUCCESS },
  close: { from: OPEN_REFUND, to: REFUND_STATUS.CLOSED },
} as const satisfies Record<string, Transition>;

export const TICKET_LIFECYCLE = {
  /**
   * A refund of the order was requested: no entry from now on. An open transfer offer is held
   * too (only a session cancel refunds such a ticket; fans' and admins' refunds refuse it first).
   */
  holdForRefund: { from: [TICKET_STATUS.VALID, TICKET_STATUS.TRANSFERRING], to: TICKET_STATUS.REFUNDING },
  /** WeChat closed the refund: the ticket is good again. */
  refundClosed: { from: [TICKET_STATUS.REFUNDING], to: TICKET_STATUS.VALID },
  /** The refund succeeded. */
  void: { from: [TICKET_STATUS.VALID, TICKET_STATUS.REFUNDING], to: TICKET_STATUS.VOIDED },
  /** The holder offered it for transfer: no entry, no refund while the offer is open. */
  offerTransfer: { from: [TICKET_STATUS.VALID], to: TICKET_STATUS.TRANSFERRING },
  /** The giver cancelled the offer, or it expired at the cutoff: the ticket is good again. */
  withdrawTransfer: { from: [TICKET_STATUS.TRANSFERRING], to: TICKET_STATUS.VALID },
  /** The receiver accepted: this ticket is dead, a new one (new number and secret) replaces it. */
  handOver: { from: [TICKET_STATUS.TRANSFERRING], to: TICKET_STATUS.TRANSFERRED },
  /** Its exchange order was paid: the new ticket replaces it (only a valid ticket is given up). */
  exchange: { from: [TICKET_STATUS.VALID], to: TICKET_STATUS.EXCHANGED },
} as const satisfies Record<string, Transition>;

export const EXCHANGE_LIFECYCLE = {
  /** Its order was paid (or nothing was owed) and the old tickets were given up. */
  complete: { from: [EXCHANGE_STATUS.PENDING], to: EXCHANGE_STATUS.DONE },
  /** Paid, but an old ticket was no longer valid: the exchange order is refunded in full. */
  fail: { from: [EXCHANGE_STATUS.PENDING], to: EXCHANGE_STATUS.FAILED },
} as const satisfies Record<string, Transition>;

const W = WAITLIST_STATUS;

/** A waiting-list entry; every move out of WAITING/OFFERED also clears its `live` mark. */
export const WAITLIST_LIFECYCLE = {
  /** Returned units are held for the fan as a pending order. */
  offer: { from: [W.WAITING], to: W.OFFERED },
  /** The offer's order was paid. */
  fulfil: { from: [W.OFFERED], to: W.FULFILLED },
  /** The offer's order expired unpaid: the units pass on to the next fan. */
  lapse: { from: [W.OFFERED], to: W.LAPSED },
  /** The fan turned the offer down (its order cancelled). */
  decline: { from: [W.OFFERED], to: W.DECLINED },
  /** The fan left the line. */
  leave: { from: [W.WAITING], to: W.LEFT },
  /** No offer can be made any more (limit reached, sale stopped). */
  end: { from: [W.WAITING], to: W.ENDED },
} as const satisfies Record<string, Transition>;
