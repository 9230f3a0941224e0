import { z } from 'zod';

/** Cancelling or postponing a session (issue 16): the admin's requests and the progress view. */

const isoTime = z.iso.datetime({ offset: true });

/** POST /api/v1/admin/sessions/:sessionId/cancel */
export const SessionCancelSchema = z.strictObject({
  reason: z.string().trim().min(1, '请填写取消原因').max(200),
});

/** POST /api/v1/admin/sessions/:sessionId/postpone */
export const SessionPostponeSchema = z.strictObject({
  startsAt: isoTime,
  /** Until then every fan of the session may refund in full, whatever the show's tiers say. */
  refundUntil: isoTime,
  reason: z.string().trim().max(200).optional(),
});

export type SessionCancelInput = z.input<typeof SessionCancelSchema>;
export type SessionPostponeInput = z.input<typeof SessionPostponeSchema>;

export type SessionChangeKind = 'cancel' | 'postpone';

/** One change of a session and, for a cancellation, its refund run counted to the fen. */
export interface SessionChangeView {
  id: string;
  sessionId: string;
  kind: SessionChangeKind;
  /** running: orders still to tell, refund or settle; done: every order settled. */
  state: 'running' | 'done';
  reason: string;
  oldStartsAt: string;
  newStartsAt: string | null;
  refundUntil: string | null;
  createdBy: string;
  createdAt: string;
  finishedAt: string | null;
  /** Orders the change reached (told; for a cancellation, to refund). */
  orders: {
    total: number;
    /** Refund not asked yet (the run is rate-limited). */
    waiting: number;
    /** Asked, WeChat has not confirmed yet (includes refusals being retried). */
    inProgress: number;
    refunded: number;
    /** Refused by our rules (e.g. already checked in) or handed to an operator (abnormal). */
    failed: number;
  };
  /** Pending orders of the session still to cancel (their seats go back). */
  pendingLeft: number;
  fenToRefund: number;
  fenRefunded: number;
  /** Refunds WeChat refused and the recovery sends again: [{orderNo, amountFen, lastError}]. */
  problems: { orderNo: string; amountFen: number; state: string; error: string | null }[];
}

/** GET /api/v1/admin/sessions/:sessionId/changes */
export interface SessionChangesView {
  items: SessionChangeView[];
}
