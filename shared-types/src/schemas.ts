import { z } from 'zod';
import { ID_FORMAT_MESSAGES, isValidIdNumber, normalizeIdNumber } from './idcard';
import { PhoneSchema } from './phone';
import { ID_TYPES } from './id-types';

export { ID_TYPES };

/** Ids travel as strings (they are BIGINTs on the server); numbers are accepted and normalised. */
export const IdSchema = z
  .union([z.string().regex(/^[1-9]\d{0,17}$/), z.number().int().positive().max(Number.MAX_SAFE_INTEGER)])
  .transform(String);

/** A show setting's cutoff: whole minutes before the session starts, up to `maxDays` days. */
export const cutoffMinutesSchema = (maxDays: number) =>
  z
    .number()
    .int()
    .min(0)
    .max(60 * 24 * maxDays);

/** Hard ceiling on units per order; a session's own purchase limit is usually lower. */
export const SEATS_PER_ORDER_MAX = 10;

/** An ID number as typed: normalised (normalizeIdNumber), so one document has one spelling. */
const IdNumberSchema = z.string().max(64).transform(normalizeIdNumber).pipe(z.string().min(5).max(32));

/** Refuses a number that does not have the form of its document type (message per type). */
function checkIdFormat(a: { idType?: string; idNumber?: string }, ctx: z.RefinementCtx): void {
  if (a.idType && a.idNumber !== undefined && !isValidIdNumber(a.idType, a.idNumber))
    ctx.addIssue({ code: 'custom', message: ID_FORMAT_MESSAGES[a.idType]!, path: ['idNumber'] });
}

export const AttendeeSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(32),
    idType: z.enum(ID_TYPES),
    idNumber: IdNumberSchema,
  })
  .superRefine(checkIdFormat);

const orderCommon = {
  sessionId: IdSchema,
  attendees: z.array(AttendeeSchema).min(1).max(SEATS_PER_ORDER_MAX).optional(),
  admissionToken: z.string().min(1).max(2048).optional(),
  /** 联系手机: how the organiser reaches the buyer; stored encrypted, searchable by support. */
  contactPhone: PhoneSchema.optional(),
};

export const CreateSeatOrderSchema = z.strictObject({
  ...orderCommon,
  seatIds: z
    .array(IdSchema)
    .min(1)
    .max(SEATS_PER_ORDER_MAX)
    .refine((ids) => new Set(ids).size === ids.length, { message: '座位重复' }),
});

export const CreateZoneOrderSchema = z.strictObject({
  ...orderCommon,
  zoneId: IdSchema,
  quantity: z.number().int().min(1).max(SEATS_PER_ORDER_MAX),
});

export const CreateOrderSchema = z.union([CreateSeatOrderSchema, CreateZoneOrderSchema]);
export type CreateOrderInput = z.infer<typeof CreateOrderSchema>;

/** An Idempotency-Key's form: 8-128 letters, digits and `_ . : -` (no flags: test() keeps no state). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\w.:-]{8,128}$/;
export const IdempotencyKeySchema = z.string().regex(IDEMPOTENCY_KEY_PATTERN);

export const WxLoginSchema = z.strictObject({ code: z.string().min(1).max(128) });

/** Ticket numbers (GET /api/v1/tickets ticketId) chosen for a per-ticket refund. */
export const RefundTicketIdsSchema = z
  .array(z.string().regex(/^T[2-9A-HJ-NP-Z]{19}$/, '门票编号格式不正确'))
  .min(1, '请选择要退的门票')
  .max(50);

/** ticketIds: refund only those tickets of the order (per-ticket refund); none: the whole order. */
export const RefundRequestSchema = z.strictObject({
  reason: z.string().max(200).optional(),
  ticketIds: RefundTicketIdsSchema.optional(),
});

export const ListOrdersQuerySchema = z.strictObject({
  status: z.enum(['pending', 'paid', 'ticketed', 'cancelled', 'refunded']).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  before: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional(),
});

/** Joining a waiting room; a real-name session needs the ID the place is for. */
export const QueueJoinSchema = z
  .strictObject({
    idType: z.enum(ID_TYPES).optional(),
    idNumber: IdNumberSchema.optional(),
  })
  .superRefine(checkIdFormat);

/** A frequent attendee (常用观演人) saved by a buyer. */
export const SavedAttendeeSchema = AttendeeSchema;
