import type { ClientErrorCode } from '@showtix/shared-types';
import { ApiError, ERRORS, isErrorCode, networkError } from './shared';

/** Every failure of the service layer: an API error code, or NETWORK when no answer came. */
export type { ClientErrorCode };

export { ApiError };

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return networkError('网络不给力，请检查网络后重试');
}

/** No answer, or the server failing: the request itself may well succeed later. */
export function isUnreachable(code: string): boolean {
  return (
    code === 'NETWORK' ||
    code === 'INTERNAL' ||
    code === 'SERVICE_UNAVAILABLE' ||
    code === 'OVERLOADED' ||
    code === 'WECHAT_BUSY'
  );
}

/** What the page should offer after an error. Pages turn these into navigation. */
export type Remedy =
  | 'pick_other_seats'
  | 'adjust_selection'
  | 'back_to_show'
  | 'back_home'
  | 'order_again'
  | 'retry_later'
  | 'retry'
  | 'login_again'
  | 'fix_input'
  | 'refresh_order'
  | 'rejoin_queue';

export interface ErrorView {
  code: ClientErrorCode;
  title: string;
  message: string;
  remedy: Remedy;
  actionText: string;
  retryAfterMs?: number;
}

interface Advice {
  title: string;
  remedy: Remedy;
  actionText: string;
}

/** A way forward: what the page offers (pages turn it into navigation), and its button's words. */
const way = (remedy: Remedy, actionText: string) => ({ remedy, actionText });
const HOME = way('back_home', '返回首页');
const GOT_IT = way('back_home', '知道了');
const REFRESH = way('refresh_order', '刷新订单');
const VIEW_ORDER = way('refresh_order', '查看订单');
const LATER = way('retry_later', '稍后重试');
const REFRESH_LATER = way('retry_later', '稍后刷新');
const RETRY = way('retry', '重试');
const RESUBMIT = way('retry', '重新提交');
const TO_SHOW = way('back_to_show', '返回演出详情');
const OTHER_SESSIONS = way('back_to_show', '看看其他场次');
const BUY = way('back_to_show', '去购买');
const TO_WAITLIST = way('back_to_show', '去候补');
const FIX = way('fix_input', '返回修改');
const RETYPE = way('fix_input', '重新输入');
const OTHER_ATTENDEE = way('fix_input', '更换观演人');
const OTHER_ID = way('fix_input', '更换证件');
const PICK_SEATS = way('pick_other_seats', '重新选座');
const ADJUST = way('adjust_selection', '调整选座');
const ORDER_AGAIN = way('order_again', '重新下单');
const LOGIN = way('login_again', '重新登录');
const QUEUE = way('rejoin_queue', '去排队');

// Every code of the shared table must have advice (a new code fails the type check here);
// codes the installed shared-types does not know yet may already be listed.
const ADVICE: Record<ClientErrorCode, Advice> & Partial<Record<string, Advice>> = {
  SEAT_TAKEN: { title: '手慢了，座位刚被抢走', ...PICK_SEATS },
  SOLD_OUT: { title: '本场已售罄', ...OTHER_SESSIONS },
  LIMIT_EXCEEDED: { title: '超出限购数量', ...ADJUST },
  NOT_ON_SALE: { title: '暂未开售', ...TO_SHOW },
  ORDER_EXPIRED: { title: '订单已超时', ...ORDER_AGAIN },
  RATE_LIMITED: { title: '当前人数较多', ...LATER },
  UNAUTHORIZED: { title: '登录已失效', ...LOGIN },
  QUEUE_REQUIRED: { title: '需要排队购票', ...QUEUE },
  FORBIDDEN: { title: '无法操作', ...HOME },
  NOT_FOUND: { title: '内容不存在', ...HOME },
  VALIDATION_FAILED: { title: '信息有误', ...FIX },
  PAYLOAD_TOO_LARGE: { title: '信息过多', ...FIX },
  IDEMPOTENCY_CONFLICT: { title: '订单信息已变化', ...RESUBMIT },
  REQUEST_IN_PROGRESS: { title: '正在处理中', ...REFRESH_LATER },
  ORDER_STATE_INVALID: { title: '订单状态已变化', ...REFRESH },
  REFUND_NOT_ALLOWED: { title: '暂不支持退票', ...VIEW_ORDER },
  // Per-ticket refunds: the order changed under the fan (another device, a gate scan): read it again.
  TICKET_ALREADY_REFUNDED: { title: '门票已在退票', ...REFRESH },
  TICKET_CHECKED_IN: { title: '门票已入场', ...REFRESH },
  REFUND_EXCEEDS_PAID: { title: '退款金额有误', ...REFRESH },
  TICKET_NOT_BINDABLE: { title: '门票已失效', ...HOME },
  // 改签: the rules or the tickets changed under the fan; the order page shows what is left.
  EXCHANGE_NOT_ALLOWED: { title: '不支持改签', ...VIEW_ORDER },
  EXCHANGE_CLOSED: { title: '已过改签时限', ...VIEW_ORDER },
  EXCHANGE_TICKET_INVALID: { title: '门票不能改签', ...REFRESH },
  EXCHANGE_IN_PROGRESS: { title: '门票正在改签', ...REFRESH },
  EXCHANGE_OTHER_SHOW: { title: '不能改签到其他演出', ...VIEW_ORDER },
  REBIND_FROZEN: { title: '暂不能更换手机', ...GOT_IT },
  // Ticket transfers (转赠): the giver's wallet and the receiver's accept page.
  TRANSFER_DISABLED: { title: '不支持转赠', ...GOT_IT },
  TRANSFER_CLOSED: { title: '转赠已截止', ...GOT_IT },
  TRANSFER_ONCE: { title: '不能再次转赠', ...GOT_IT },
  TRANSFER_SELF: { title: '这是您发出的转赠', ...GOT_IT },
  TRANSFER_CODE_INVALID: { title: '转赠链接已失效', ...HOME },
  TICKET_NOT_TRANSFERABLE: { title: '门票不能转赠', ...GOT_IT },
  TICKET_TRANSFERRED: { title: '门票已转赠', ...REFRESH },
  TICKET_TRANSFERRING: { title: '门票转赠中', ...REFRESH },
  // Fair-access codes (real-name and risk rules); listed ahead of the shared table that adds them.
  ID_TAKEN: { title: '证件已购票', ...OTHER_ATTENDEE },
  QUEUE_ID_TAKEN: { title: '证件已在排队', ...OTHER_ID },
  BLOCKED: { title: '暂不能购票', ...HOME },
  QUEUE_ID_NOT_ATTENDEE: { title: '观演人与排队证件不符', ...FIX },
  // Waiting list (候补): returned tickets of a tier with fans waiting go to them first.
  WAITLIST_FIRST: { title: '退票优先分配给候补', ...TO_WAITLIST },
  WAITLIST_NOT_SOLD_OUT: { title: '该票档尚有余票', ...BUY },
  WAITLIST_EXISTS: { title: '已在候补中', ...GOT_IT },
  WAITLIST_UNAVAILABLE: { title: '暂不支持候补', ...TO_SHOW },
  SALE_REMINDER_UNAVAILABLE: { title: '无需开售提醒', ...BUY },
  HOLD_COOLDOWN: { title: '操作过于频繁', ...TO_SHOW },
  SESSION_STATE_INVALID: { title: '场次状态已变化', ...TO_SHOW },
  // Admin edits only; listed so that every code of the shared table has a way forward.
  EDIT_CONFLICT: { title: '无法保存', ...RETRY },
  METHOD_NOT_ALLOWED: { title: '操作有误', ...HOME },
  INTERNAL: { title: '系统繁忙', ...RETRY },
  SERVICE_UNAVAILABLE: { title: '系统繁忙', ...LATER },
  OVERLOADED: { title: '当前人数过多', ...LATER },
  WECHAT_BUSY: { title: '微信支付繁忙', ...LATER },
  FEATURE_PAUSED: { title: '功能暂时关闭', ...LATER },
  // Reserved units and complimentary tickets: the admin page's codes, and the 领取赠票 page's.
  PUBLIC_SHARE_TOO_LOW: { title: '不能预留', ...HOME },
  UNIT_NOT_RESERVED: { title: '未预留', ...HOME },
  UNIT_IN_USE: { title: '已赠出', ...HOME },
  COMP_CODE_INVALID: { title: '领取码无效', ...RETYPE },
  COMP_ALREADY_CLAIMED: { title: '赠票已被领取', ...GOT_IT },
  NETWORK: { title: '网络不给力', ...RETRY },
};

/** Replaces the shared message where the fan needs more than the server's sentence. */
const FAN_MESSAGE: Partial<Record<string, string>> = {
  SEAT_TAKEN: '您选的座位刚被其他观众锁定，座位图已刷新，请换个座位。',
  LIMIT_EXCEEDED: '本场每个账号限购数量已满，请减少张数或查看已有订单。',
  NOT_ON_SALE: '本场次当前不在售卖时间，请留意开售时间。',
  ORDER_EXPIRED: '支付时间已过，座位已释放，请重新下单。',
  QUEUE_REQUIRED: '本场次需排队购票，您的购票资格已失效或已使用，请重新排队。',
  TRANSFER_SELF: '不能接收自己转赠的门票，请把链接分享给好友接收。',
  TICKET_TRANSFERRING: '该门票正在转赠中，请先在票夹中取消转赠再退票。',
  ID_TAKEN: '该证件已持有本场次门票（一证一票），请更换观演人或调整购票张数。',
  QUEUE_ID_TAKEN: '该证件已在其他账号排队（一证一位），请使用本人的其他证件，或用原账号继续排队。',
  BLOCKED: '账号或设备存在异常，暂不能排队或购票。如有疑问请联系客服。',
  QUEUE_ID_NOT_ATTENDEE: '本场实名排队，排队时登记的证件须为本订单的观演人之一，请添加该证件的观演人。',
  WAITLIST_FIRST: '该票档有观众正在候补，退回的票会优先分配给他们。您可以在演出详情页加入候补。',
  WECHAT_BUSY: '微信支付繁忙，请稍后再试。订单已为您保留，可在有效期内重新支付。',
  NETWORK: '网络连接失败，请检查网络后重试。',
};

/** True when the code has its own advice (not the generic fallback). */
export function hasAdvice(code: string): boolean {
  return Object.prototype.hasOwnProperty.call(ADVICE, code);
}

function sharedMessage(code: ClientErrorCode): string | undefined {
  return code !== 'NETWORK' && isErrorCode(code) ? ERRORS[code].message : undefined;
}

/** Codes whose server message says more than the shared one (which field, which limit). */
const SERVER_WORDS = new Set<ClientErrorCode>(['VALIDATION_FAILED', 'FORBIDDEN', 'LIMIT_EXCEEDED']);
const hasChinese = (s: string) => /[\u4e00-\u9fa5]/.test(s);

/** "约 30 分钟后" / "约 20 秒后" */
export function waitText(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `约 ${s} 秒后`;
  const m = Math.ceil(s / 60);
  return m < 60 ? `约 ${m} 分钟后` : `约 ${Math.floor(m / 60)} 小时 ${m % 60} 分钟后`;
}

/** The fan-facing title, message and way forward for any error the service layer throws. */
export function errorView(err: unknown): ErrorView {
  const e = toApiError(err);
  const advice = ADVICE[e.code] ?? ADVICE.INTERNAL;
  let message = FAN_MESSAGE[e.code] ?? sharedMessage(e.code) ?? e.message;
  if (SERVER_WORDS.has(e.code) && hasChinese(e.message) && e.message !== sharedMessage(e.code))
    message = e.message;
  if (e.code === 'RATE_LIMITED' && e.retryAfterMs) {
    message = `${ERRORS.RATE_LIMITED.message}（约 ${Math.ceil(e.retryAfterMs / 1000)} 秒后）`;
  }
  if (e.code === 'HOLD_COOLDOWN' && e.retryAfterMs) {
    message = `您多次锁定座位未支付，暂不能下单，请${waitText(e.retryAfterMs)}再试。`;
  }
  return {
    code: e.code,
    title: advice.title,
    message,
    remedy: advice.remedy,
    actionText: advice.actionText,
    retryAfterMs: e.retryAfterMs,
  };
}
