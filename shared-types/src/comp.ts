import { z } from 'zod';
import { PhoneSchema } from './phone';
import { AttendeeSchema, IdempotencyKeySchema, IdSchema, SEATS_PER_ORDER_MAX } from './schemas';

/**
 * Reserved units and complimentary tickets (issue 16, organiser part): seats or standing units
 * held back from public sale, and tickets issued from them to named people without payment.
 */

/** China's rule for large shows: at least 85% of a session's tickets go on public sale. */
export const PUBLIC_SHARE_MIN_PERCENT = 85;

/** Seats held back per request (a sponsor's block); the public share caps the total anyway. */
export const RESERVE_SEATS_MAX = 500;

const seatIds = (max: number) =>
  z
    .array(IdSchema)
    .min(1)
    .max(max)
    .refine((ids) => new Set(ids).size === ids.length, { message: '座位重复' });

/** POST /api/v1/admin/sessions/:sessionId/reservations/seats (and .../seats/release) */
export const ReserveSeatsSchema = z.strictObject({ seatIds: seatIds(RESERVE_SEATS_MAX) });
export type ReserveSeatsInput = z.input<typeof ReserveSeatsSchema>;

/** PUT /api/v1/admin/sessions/:sessionId/reservations/zones/:zoneId: the zone's reserved count. */
export const ReserveZoneSchema = z.strictObject({ reserved: z.number().int().min(0).max(100_000) });
export type ReserveZoneInput = z.input<typeof ReserveZoneSchema>;

const compCommon = {
  idempotencyKey: IdempotencyKeySchema,
  name: z.string().trim().min(1, '请填写姓名').max(32),
  phone: PhoneSchema,
  /** Real-name sessions: the person's ID (one ID, one ticket; one ticket per comp then). */
  attendee: AttendeeSchema.optional(),
  note: z.string().trim().max(200).optional(),
};

/** POST /api/v1/admin/sessions/:sessionId/comps */
export const CompIssueSchema = z.union([
  z.strictObject({ ...compCommon, seatIds: seatIds(SEATS_PER_ORDER_MAX) }),
  z.strictObject({
    ...compCommon,
    zoneId: IdSchema,
    quantity: z.number().int().min(1).max(SEATS_PER_ORDER_MAX),
  }),
]);
export type CompIssueInput = z.input<typeof CompIssueSchema>;

/** POST /api/v1/admin/comps/:orderId/void */
export const CompVoidSchema = z.strictObject({ reason: z.string().trim().min(1, '请填写作废原因').max(200) });
export type CompVoidInput = z.input<typeof CompVoidSchema>;

/** POST /api/v1/comps/claim (the person, signed in to the mini-program) */
export const CompClaimSchema = z.strictObject({
  code: z
    .string()
    .trim()
    .regex(/^[A-Z2-9]{10}$/, '领取码格式不正确'),
});
export type CompClaimInput = z.input<typeof CompClaimSchema>;

/** A zone's units held back: `reserved` in all, `issued` of them carry a live comp ticket. */
export interface ZoneReservation {
  zoneId: string;
  name: string;
  capacity: number;
  reserved: number;
  issued: number;
}

/** GET /api/v1/admin/sessions/:sessionId/reservations */
export interface ReservationsView {
  sessionId: string;
  /** Every ticket of the session (seats and standing units). */
  capacity: number;
  /** Held back from public sale (comp tickets issued from them included). */
  reserved: number;
  /** Reserved units that carry a live complimentary ticket. */
  issued: number;
  /** Share of the session's tickets on public sale, in percent with one decimal. */
  publicPercent: number;
  /** The most that may be reserved in all (15% of capacity, rounded down). */
  reservableMax: number;
  seats: { seatId: string; label: string; issued: boolean }[];
  zones: ZoneReservation[];
}

export type CompState = 'issued' | 'claimed' | 'voided';

/** One complimentary order (one named person), as the organiser sees it. */
export interface CompView {
  orderId: string;
  orderNo: string;
  sessionId: string;
  state: CompState;
  nameMasked: string;
  phoneMasked: string;
  /** ID of a real-name session's ticket, masked. */
  idMasked: string | null;
  note: string;
  /** What the person opens in the mini-program (我的 → 领取赠票) to bind the tickets. */
  claimCode: string;
  tickets: { ticketNo: string; label: string; status: 'valid' | 'voided' }[];
  issuedBy: string;
  issuedAt: string;
  claimedAt: string | null;
  voidedBy: string | null;
  voidedAt: string | null;
  voidReason: string | null;
}

/** GET /api/v1/admin/sessions/:sessionId/comps */
export interface CompListView {
  items: CompView[];
}

/** POST /api/v1/comps/claim */
export interface CompClaimView {
  orderId: string;
  orderNo: string;
  sessionId: string;
  tickets: number;
}
