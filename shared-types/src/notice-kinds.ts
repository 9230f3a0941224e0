/**
 * The kinds of notice a fan can consent to, one WeChat subscribe-message template each
 * (template ids are server configuration: GET /api/v1/notices/templates), and WeChat's answers.
 * Plain constants, no zod: the fan app's start bundle imports this (notices.ts re-exports it).
 */
export const NOTICE_KINDS = [
  'paid',
  'ticketed',
  'refund',
  'waiting_list_offer',
  'session_changed',
  'reminder',
  /** 开售提醒: a show the fan asked to be told of has gone on sale. */
  'sale_open',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** What wx.requestSubscribeMessage answers for each template id. */
export const SUBSCRIBE_ANSWERS = ['accept', 'reject', 'ban', 'filter'] as const;
export type SubscribeAnswer = (typeof SUBSCRIBE_ANSWERS)[number];
