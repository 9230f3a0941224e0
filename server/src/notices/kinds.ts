import type { NoticeKind } from '@showtix/shared-types';
import type { NoticeTemplate } from '../outbox/repo';

/** Per template: its kind (which WeChat template and consent), the line the fan reads, the page it opens. */
export const NOTICE_TEXT: Record<NoticeTemplate, { kind: NoticeKind; title: string; page: string }> = {
  paid: { kind: 'paid', title: '支付成功，正在为您出票', page: 'pages/order/index' },
  ticketed: { kind: 'ticketed', title: '购票成功，电子票已放入票夹', page: 'pages/tickets/index' },
  refunded: { kind: 'refund', title: '退票成功，款项将原路退回', page: 'pages/order/index' },
  late_refund: { kind: 'refund', title: '支付超时，座位已售出，款项将原路退回', page: 'pages/order/index' },
  refund_delayed: { kind: 'refund', title: '退款遇到问题，客服将尽快联系您处理', page: 'pages/order/index' },
  returned: { kind: 'refund', title: '支付币种与订单不符，款项将原路退回', page: 'pages/order/index' },
  waiting_list_offer: {
    kind: 'waiting_list_offer',
    title: '候补成功，请尽快完成支付',
    page: 'pages/order/index',
  },
  session_changed: {
    kind: 'session_changed',
    title: '演出场次有变更，请查看详情',
    page: 'pages/order/index',
  },
  reminder: { kind: 'reminder', title: '演出明天开始，请按时入场', page: 'pages/tickets/index' },
  sale_open: { kind: 'sale_open', title: '您想看的演出开售了，快去抢票', page: 'pages/show/index' },
};

/**
 * WeChat errcodes worth another try later (the consumer's retry): -1 system busy, 40001/42001 a
 * rotated or expired access token, 45009/45011 API quota. Any other non-zero errcode is final.
 */
export const TRANSIENT_ERRCODES = new Set([-1, 40001, 42001, 45009, 45011]);

/** 43101: the fan has no consent left at WeChat (one-time subscriptions). */
export const ERRCODE_REFUSED = 43101;

/** 'YYYY-MM-DD HH:mm' in Beijing time (UTC+8, no daylight saving), the `time` keyword's form. */
export function beijingTime(at: Date): string {
  return new Date(at.getTime() + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
}
