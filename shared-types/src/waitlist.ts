import { z } from 'zod';
import { IdSchema, SEATS_PER_ORDER_MAX } from './schemas';

/** The waiting list (候补) for returned tickets (issue 16): the fan's requests and views. */

/** POST /api/v1/sessions/:sessionId/waitlist */
export const JoinWaitlistSchema = z.strictObject({
  tierId: IdSchema,
  quantity: z.number().int().min(1).max(SEATS_PER_ORDER_MAX),
  /** A waiting-room session: the admission token, as for a purchase. */
  admissionToken: z.string().min(1).max(2048).optional(),
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
}

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
