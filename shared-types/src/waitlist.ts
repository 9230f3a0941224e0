import { z } from 'zod';
import type { AttendeeOnTicket } from './api';
import { AttendeeSchema, IdSchema, SEATS_PER_ORDER_MAX } from './schemas';

/** The waiting list (候补) for returned tickets (issue 16): the fan's requests and views. */

/** POST /api/v1/sessions/:sessionId/waitlist */
export const JoinWaitlistSchema = z.strictObject({
  tierId: IdSchema,
  quantity: z.number().int().min(1).max(SEATS_PER_ORDER_MAX),
  /** A waiting-room session: the admission token, as for a purchase. */
  admissionToken: z.string().min(1).max(2048).optional(),
  /**
   * A real-name session: who goes, one per unit (as for a purchase). The offer's order carries
   * them and its tickets are bound to them. Ignored on other sessions, as for a purchase.
   */
  attendees: z.array(AttendeeSchema).min(1).max(SEATS_PER_ORDER_MAX).optional(),
});
export type JoinWaitlistInput = z.input<typeof JoinWaitlistSchema>;

/**
 * waiting: in line; offered: returned units are held for the fan as a pending order (pay it
 * before `offerExpiresAt`); fulfilled: paid; lapsed: the offer expired unpaid; declined; left;
 * ended: no offer could be made any more (purchase limit reached, or the sale stopped).
 */
export const WAITLIST_STATES = [
  'waiting',
  'offered',
  'fulfilled',
  'lapsed',
  'declined',
  'left',
  'ended',
] as const;
export type WaitlistState = (typeof WAITLIST_STATES)[number];

export interface WaitlistEntry {
  id: string;
  sessionId: string;
  tierId: string;
  tierName: string;
  priceFen: number;
  quantity: number;
  state: WaitlistState;
  /** Live entries of the same tier that joined earlier (waiting only; 0 otherwise). */
  ahead: number;
  /** The offer's order (offered and after). */
  orderNo: string | null;
  offerExpiresAt: string | null;
  showTitle: string;
  startsAt: string;
  createdAt: string;
  /** A real-name session's attendees of this entry, masked as on a ticket (empty elsewhere). */
  attendees: AttendeeOnTicket[];
  /**
   * Why an ended entry ended: 'attendee_taken' (an attendee got a ticket of the session
   * meanwhile; the units passed on), 'limit' (the purchase limit was reached), 'sale_stopped'.
   */
  endReason: WaitlistEndReason | null;
}

export const WAITLIST_END_REASONS = ['attendee_taken', 'limit', 'sale_stopped'] as const;
export type WaitlistEndReason = (typeof WAITLIST_END_REASONS)[number];

/** GET /api/v1/admin/sessions/:sessionId/waitlist: the line per tier. */
export interface WaitlistTierCount {
  tierId: string;
  tierName: string;
  /** Entries waiting, and the units they wait for. */
  waiting: number;
  waitingUnits: number;
  /** Entries holding an offer now. */
  offered: number;
  fulfilled: number;
  lapsed: number;
}
