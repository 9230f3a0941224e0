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
  /** Replaces the shared message where the fan needs more than the server's sentence. */
  message?: string;
}

// Every code of the shared table must have advice (a new code fails the type check here);
// codes the installed shared-types does not know yet may already be listed.
const ADVICE: Record<ClientErrorCode, Advice> & Partial<Record<string, Advice>> = {
  SEAT_TAKEN: {
    title: '手慢了，座位刚被抢走',
    remedy: 'pick_other_seats',
    actionText: '重新选座',
    message: '您选的座位刚被其他观众锁定，座位图已刷新，请换个座位。',
  },
  SOLD_OUT: { title: '本场已售罄', remedy: 'back_to_show', actionText: '看看其他场次' },
  LIMIT_EXCEEDED: {
    title: '超出限购数量',
    remedy: 'adjust_selection',
    actionText: '调整选座',
    message: '本场每个账号限购数量已满，请减少张数或查看已有订单。',
  },
  NOT_ON_SALE: {
    title: '暂未开售',
    remedy: 'back_to_show',
    actionText: '返回演出详情',
    message: '本场次当前不在售卖时间，请留意开售时间。',
  },
  ORDER_EXPIRED: {
    title: '订单已超时',
    remedy: 'order_again',
    actionText: '重新下单',
    message: '支付时间已过，座位已释放，请重新下单。',
  },
  RATE_LIMITED: { title: '当前人数较多', remedy: 'retry_later', actionText: '稍后重试' },
  UNAUTHORIZED: { title: '登录已失效', remedy: 'login_again', actionText: '重新登录' },
  QUEUE_REQUIRED: {
    title: '需要排队购票',
    remedy: 'rejoin_queue',
    actionText: '去排队',
    message: '本场次需排队购票，您的购票资格已失效或已使用，请重新排队。',
  },
  FORBIDDEN: { title: '无法操作', remedy: 'back_home', actionText: '返回首页' },
  NOT_FOUND: { title: '内容不存在', remedy: 'back_home', actionText: '返回首页' },
  VALIDATION_FAILED: { title: '信息有误', remedy: 'fix_input', actionText: '返回修改' },
  PAYLOAD_TOO_LARGE: { title: '信息过多', remedy: 'fix_input', actionText: '返回修改' },
  IDEMPOTENCY_CONFLICT: { title: '订单信息已变化', remedy: 'retry', actionText: '重新提交' },
  REQUEST_IN_PROGRESS: { title: '正在处理中', remedy: 'retry_later', actionText: '稍后刷新' },
  ORDER_STATE_INVALID: { title: '订单状态已变化', remedy: 'refresh_order', actionText: '刷新订单' },
  REFUND_NOT_ALLOWED: { title: '暂不支持退票', remedy: 'refresh_order', actionText: '查看订单' },
  // Per-ticket refunds: the order changed under the fan (another device, a gate scan): read it again.
  TICKET_ALREADY_REFUNDED: { title: '门票已在退票', remedy: 'refresh_order', actionText: '刷新订单' },
  TICKET_CHECKED_IN: { title: '门票已入场', remedy: 'refresh_order', actionText: '刷新订单' },
  REFUND_EXCEEDS_PAID: { title: '退款金额有误', remedy: 'refresh_order', actionText: '刷新订单' },
  TICKET_NOT_BINDABLE: { title: '门票已失效', remedy: 'back_home', actionText: '返回首页' },
  // 改签: the rules or the tickets changed under the fan; the order page shows what is left.
  EXCHANGE_NOT_ALLOWED: { title: '不支持改签', remedy: 'refresh_order', actionText: '查看订单' },
  EXCHANGE_CLOSED: { title: '已过改签时限', remedy: 'refresh_order', actionText: '查看订单' },
  EXCHANGE_TICKET_INVALID: { title: '门票不能改签', remedy: 'refresh_order', actionText: '刷新订单' },
  EXCHANGE_IN_PROGRESS: { title: '门票正在改签', remedy: 'refresh_order', actionText: '刷新订单' },
  EXCHANGE_OTHER_SHOW: { title: '不能改签到其他演出', remedy: 'refresh_order', actionText: '查看订单' },
  REBIND_FROZEN: { title: '暂不能更换手机', remedy: 'back_home', actionText: '知道了' },
  // Ticket transfers (转赠): the giver's wallet and the receiver's accept page.
  TRANSFER_DISABLED: { title: '不支持转赠', remedy: 'back_home', actionText: '知道了' },
  TRANSFER_CLOSED: { title: '转赠已截止', remedy: 'back_home', actionText: '知道了' },
  TRANSFER_ONCE: { title: '不能再次转赠', remedy: 'back_home', actionText: '知道了' },
  TRANSFER_SELF: {
    title: '这是您发出的转赠',
    remedy: 'back_home',
    actionText: '知道了',
    message: '不能接收自己转赠的门票，请把链接分享给好友接收。',
  },
  TRANSFER_CODE_INVALID: { title: '转赠链接已失效', remedy: 'back_home', actionText: '返回首页' },
  TICKET_NOT_TRANSFERABLE: { title: '门票不能转赠', remedy: 'back_home', actionText: '知道了' },
  TICKET_TRANSFERRED: { title: '门票已转赠', remedy: 'refresh_order', actionText: '刷新订单' },
  TICKET_TRANSFERRING: {
    title: '门票转赠中',
    remedy: 'refresh_order',
    actionText: '刷新订单',
    message: '该门票正在转赠中，请先在票夹中取消转赠再退票。',
  },
  // Fair-access codes (real-name and risk rules); listed ahead of the shared table that adds them.
  ID_TAKEN: {
    title: '证件已购票',
    remedy: 'fix_input',
    actionText: '更换观演人',
    message: '该证件已持有本场次门票（一证一票），请更换观演人或调整购票张数。',
  },
  QUEUE_ID_TAKEN: {
    title: '证件已在排队',
    remedy: 'fix_input',
    actionText: '更换证件',
    message: '该证件已在其他账号排队（一证一位），请使用本人的其他证件，或用原账号继续排队。',
  },
  BLOCKED: {
    title: '暂不能购票',
    remedy: 'back_home',
    actionText: '返回首页',
    message: '账号或设备存在异常，暂不能排队或购票。如有疑问请联系客服。',
  },
  QUEUE_ID_NOT_ATTENDEE: {
    title: '观演人与排队证件不符',
    remedy: 'fix_input',
    actionText: '返回修改',
    message: '本场实名排队，排队时登记的证件须为本订单的观演人之一，请添加该证件的观演人。',
  },
  // Waiting list (候补): returned tickets of a tier with fans waiting go to them first.
  WAITLIST_FIRST: {
    title: '退票优先分配给候补',
    remedy: 'back_to_show',
    actionText: '去候补',
    message: '该票档有观众正在候补，退回的票会优先分配给他们。您可以在演出详情页加入候补。',
  },
  WAITLIST_NOT_SOLD_OUT: { title: '该票档尚有余票', remedy: 'back_to_show', actionText: '去购买' },
  WAITLIST_EXISTS: { title: '已在候补中', remedy: 'back_home', actionText: '知道了' },
  WAITLIST_UNAVAILABLE: { title: '暂不支持候补', remedy: 'back_to_show', actionText: '返回演出详情' },
  SALE_REMINDER_UNAVAILABLE: { title: '无需开售提醒', remedy: 'back_to_show', actionText: '去购买' },
  HOLD_COOLDOWN: { title: '操作过于频繁', remedy: 'back_to_show', actionText: '返回演出详情' },
  SESSION_STATE_INVALID: { title: '场次状态已变化', remedy: 'back_to_show', actionText: '返回演出详情' },
  // Admin edits only; listed so that every code of the shared table has a way forward.
  EDIT_CONFLICT: { title: '无法保存', remedy: 'retry', actionText: '重试' },
  METHOD_NOT_ALLOWED: { title: '操作有误', remedy: 'back_home', actionText: '返回首页' },
  INTERNAL: { title: '系统繁忙', remedy: 'retry', actionText: '重试' },
  SERVICE_UNAVAILABLE: { title: '系统繁忙', remedy: 'retry_later', actionText: '稍后重试' },
  OVERLOADED: { title: '当前人数过多', remedy: 'retry_later', actionText: '稍后重试' },
  WECHAT_BUSY: {
    title: '微信支付繁忙',
    remedy: 'retry_later',
    actionText: '稍后重试',
    message: '微信支付繁忙，请稍后再试。订单已为您保留，可在有效期内重新支付。',
  },
  FEATURE_PAUSED: { title: '功能暂时关闭', remedy: 'retry_later', actionText: '稍后重试' },
  // Reserved units and complimentary tickets: the admin page's codes, and the 领取赠票 page's.
  PUBLIC_SHARE_TOO_LOW: { title: '不能预留', remedy: 'back_home', actionText: '返回首页' },
  UNIT_NOT_RESERVED: { title: '未预留', remedy: 'back_home', actionText: '返回首页' },
  UNIT_IN_USE: { title: '已赠出', remedy: 'back_home', actionText: '返回首页' },
  COMP_CODE_INVALID: { title: '领取码无效', remedy: 'fix_input', actionText: '重新输入' },
  COMP_ALREADY_CLAIMED: { title: '赠票已被领取', remedy: 'back_home', actionText: '知道了' },
  NETWORK: {
    title: '网络不给力',
    remedy: 'retry',
    actionText: '重试',
    message: '网络连接失败，请检查网络后重试。',
  },
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
  let message = advice.message ?? sharedMessage(e.code) ?? e.message;
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
