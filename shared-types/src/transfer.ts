import { z } from 'zod';
import { AttendeeSchema, cutoffMinutesSchema } from './schemas';

/** Ticket transfers (转赠, issue 16): the fan's and the organiser's requests and views. */

/** A transfer code as shared in the link (pages/transfer/index?code=...). */
export const TransferCodeSchema = z.string().regex(/^[\w-]{43}$/, '转赠码格式有误');

/**
 * POST /api/v1/transfers/:code/accept. On a real-name session the receiver names the attendee
 * the ticket is re-bound to: a frequent attendee of theirs (savedAttendeeId) or one typed in.
 */
export const TransferAcceptSchema = z
  .strictObject({
    attendee: AttendeeSchema.optional(),
    savedAttendeeId: z
      .string()
      .regex(/^\d{1,20}$/)
      .optional(),
  })
  .refine((a) => !(a.attendee && a.savedAttendeeId), { message: '请只选择一位观演人' });

export type TransferAcceptInput = z.input<typeof TransferAcceptSchema>;

/** PUT /api/v1/admin/shows/:showId/transfer-settings */
export const TransferSettingsSchema = z.strictObject({
  enabled: z.boolean(),
  /** Offers close, and open ones expire, this long before the session starts. */
  cutoffMinutes: cutoffMinutesSchema(30),
  /** A ticket can be transferred once at most (a received ticket cannot be passed on). */
  onceOnly: z.boolean(),
});

export type TransferSettings = z.infer<typeof TransferSettingsSchema>;

export type TransferState = 'open' | 'accepted' | 'cancelled' | 'expired';

/** POST /api/v1/tickets/:ticketId/transfer: the giver's open offer. */
export interface TransferOffer {
  transferId: string;
  ticketId: string;
  state: TransferState;
  /** One-time code; the link is pages/transfer/index?code=<code>. */
  code: string;
  expiresAt: string;
}

/** GET /api/v1/transfers/:code: what the receiver sees before accepting. */
export interface TransferPreview {
  state: TransferState;
  showTitle: string;
  venueName: string;
  startsAt: string;
  seat?: { section: string; row: string; number: string };
  zoneName?: string;
  priceFen: number;
  realName: boolean;
  expiresAt: string;
  /** Whether the caller is the giver (the page then shows 分享, not 接收). */
  mine: boolean;
}

/** POST /api/v1/transfers/:code/accept: the receiver's new ticket. */
export interface TransferAccepted {
  transferId: string;
  /** The receiver's new ticket number (GET /api/v1/tickets lists it). */
  ticketId: string;
  acceptedAt: string;
}

/** One transfer of an order, in the admin order drawer. */
export interface AdminTransferView {
  id: string;
  state: TransferState;
  fromTicketNo: string;
  toTicketNo: string | null;
  giverUserId: string;
  receiverUserId: string | null;
  createdAt: string;
  expiresAt: string;
  closedAt: string | null;
  fromAttendee: { name: string; idNumber: string } | null;
  toAttendee: { name: string; idNumber: string } | null;
}
