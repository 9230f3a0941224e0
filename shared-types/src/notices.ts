import { z } from 'zod';
import { SUBSCRIBE_ANSWERS, type NoticeKind } from './notice-kinds';

export { NOTICE_KINDS, SUBSCRIBE_ANSWERS, type NoticeKind, type SubscribeAnswer } from './notice-kinds';

/** GET /api/v1/notices/templates */
export interface NoticeTemplates {
  templates: Record<NoticeKind, string>;
}

/**
 * POST /api/v1/me/subscriptions: the fan's answers as wx.requestSubscribeMessage returned them
 * ({[tmplId]: 'accept' | ...}), under a request id the client makes once per dialog, so a
 * retried post does not count the same accept twice.
 */
export const SubscriptionAnswersSchema = z
  .object({
    requestId: z.string().regex(/^[\w-]{8,64}$/, 'requestId: 8-64 letters, digits, _ or -'),
    results: z
      .record(z.string().regex(/^[\w-]{1,64}$/), z.enum(SUBSCRIBE_ANSWERS))
      .refine((r) => Object.keys(r).length >= 1 && Object.keys(r).length <= 20, '1-20 template ids'),
  })
  .strict();
export type SubscriptionAnswers = z.infer<typeof SubscriptionAnswersSchema>;

/** One consent the server holds: sends left for a kind (each accept allows one). */
export interface NoticeConsent {
  kind: NoticeKind;
  templateId: string;
  remaining: number;
}

/** POST and GET /api/v1/me/subscriptions */
export interface NoticeConsents {
  items: NoticeConsent[];
}

/** What became of a notice (the notices table): sent, or why not. */
export const NOTICE_STATUSES = ['sending', 'sent', 'no_consent', 'refused', 'failed'] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];

/** The ops page's summary of notices that did not reach the fan, by kind and WeChat errcode. */
export interface NoticeProblem {
  kind: string;
  status: NoticeStatus;
  /** WeChat's errcode (43101: the fan gave no consent at WeChat); null when WeChat was not asked. */
  errcode: number | null;
  errmsg: string | null;
  count: number;
  lastAt: string;
}
