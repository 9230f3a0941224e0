import { z } from 'zod';
import { cutoffMinutesSchema, IdSchema, RefundTicketIdsSchema } from './schemas';
import type { Order } from './api';

/**
 * POST /api/v1/orders/:orderNo/exchange (改签): these tickets of the order move to other seats
 * (seatIds, one per ticket) or units of a zone (zoneId; as many as tickets) of a session of the
 * same show (sessionId: the same session or another one).
 */
export const ExchangeRequestSchema = z
  .strictObject({
    ticketIds: RefundTicketIdsSchema,
    sessionId: IdSchema,
    seatIds: z
      .array(IdSchema)
      .min(1)
      .max(50)
      .refine((ids) => new Set(ids).size === ids.length, { message: '座位重复' })
      .optional(),
    zoneId: IdSchema.optional(),
  })
  .refine((r) => (r.seatIds === undefined) !== (r.zoneId === undefined), {
    message: '请选择新的座位或区域',
  })
  .refine((r) => r.seatIds === undefined || r.seatIds.length === r.ticketIds.length, {
    message: '新座位数需与改签的门票数相同',
  });
export type ExchangeRequest = z.infer<typeof ExchangeRequestSchema>;

/** The organiser's exchange rules of a show (admin show form, public show page). */
export const ExchangeRulesSchema = z.strictObject({
  allowed: z.boolean(),
  /** Exchanges close this many minutes before the session (old and new) starts. */
  cutoffMinutes: cutoffMinutesSchema(365),
});
export type ExchangeRules = z.infer<typeof ExchangeRulesSchema>;

/** pending: the exchange order waits for its payment; done; failed (refunded); cancelled (not paid in time). */
export type ExchangeStatus = 'pending' | 'done' | 'failed' | 'cancelled';

/** An exchange as the fan and the admin see it. */
export interface Exchange {
  exchangeId: string;
  status: ExchangeStatus;
  originalOrderNo: string;
  /** The exchange order: pay it (POST /orders/:orderNo/pay) when diffFen > 0. */
  orderNo: string;
  fromSessionId: string;
  toSessionId: string;
  /** The old tickets' price, the new seats' price and the difference (new - old). */
  oldFen: number;
  newFen: number;
  diffFen: number;
  /** The tickets given up (ticket numbers). */
  oldTicketIds: string[];
  /** The tickets issued in their place (once done). */
  newTicketIds: string[];
  /** The refund of the difference (a cheaper seat), once asked for. */
  refund?: { status: string; amountFen: number };
  createdAt: string;
  finishedAt?: string;
  /** The exchange order itself, as GET /orders/:orderNo shows it. */
  order?: Order;
}
