/**
 * Stable error codes of the public API. The HTTP status and the Chinese message shown to fans
 * are defined once here; server, client and admin all read them from this table.
 */
export const ERRORS = {
  VALIDATION_FAILED: { status: 400, message: '请求参数有误' },
  UNAUTHORIZED: { status: 401, message: '请先登录' },
  FORBIDDEN: { status: 403, message: '无权进行此操作' },
  QUEUE_REQUIRED: { status: 403, message: '请先排队，轮到您后再购票' },
  NOT_FOUND: { status: 404, message: '内容不存在' },
  IDEMPOTENCY_CONFLICT: { status: 409, message: '同一请求标识对应了不同的请求内容' },
  REQUEST_IN_PROGRESS: { status: 409, message: '相同的请求正在处理中，请稍候' },
  SEAT_TAKEN: { status: 409, message: '座位已被锁定，请选择其他座位' },
  SOLD_OUT: { status: 409, message: '本场次已售罄' },
  LIMIT_EXCEEDED: { status: 409, message: '超出限购数量' },
  NOT_ON_SALE: { status: 409, message: '本场次未在售' },
  ORDER_EXPIRED: { status: 409, message: '订单已过期，请重新下单' },
  ORDER_STATE_INVALID: { status: 409, message: '订单当前状态不支持此操作' },
  REFUND_NOT_ALLOWED: { status: 409, message: '当前已过退票时限，不支持退票' },
  /** A chosen ticket is already refunded, or in a refund under way. */
  TICKET_ALREADY_REFUNDED: { status: 409, message: '所选门票已退票或正在退票' },
  TICKET_CHECKED_IN: { status: 409, message: '所选门票已检票入场，不能退票' },
  /** 改签 (exchange): the show does not allow it. */
  EXCHANGE_NOT_ALLOWED: { status: 409, message: '本演出不支持改签' },
  /** The exchange cutoff before the (old or new) session's start has passed. */
  EXCHANGE_CLOSED: { status: 409, message: '已过改签时限，不能改签' },
  /** A chosen ticket is checked in, being refunded, refunded, exchanged or not issued. */
  EXCHANGE_TICKET_INVALID: { status: 409, message: '所选门票当前状态不能改签' },
  /** A chosen ticket is already in an exchange waiting for its payment. */
  EXCHANGE_IN_PROGRESS: { status: 409, message: '所选门票正在改签中，请先完成或取消' },
  /** The target session is not a session of the ticket's show. */
  EXCHANGE_OTHER_SHOW: { status: 400, message: '只能改签到同一演出的场次' },
  /** The refunds of an order would give back more than was paid: refused, nothing changed. */
  REFUND_EXCEEDS_PAID: { status: 409, message: '退款总额不能超过实付金额' },
  ID_TAKEN: { status: 409, message: '该证件已持有本场次门票（一证一票）' },
  QUEUE_ID_TAKEN: { status: 409, message: '该证件已在其他账号排队' },
  QUEUE_ID_NOT_ATTENDEE: { status: 403, message: '排队时登记的证件须为本订单的观演人之一' },
  BLOCKED: { status: 403, message: '账号存在异常，暂不能购票，请联系客服' },
  HOLD_COOLDOWN: { status: 429, message: '您多次锁定座位未支付，请稍后再试' },
  EDIT_CONFLICT: { status: 409, message: '该修改会影响已售出的票，无法保存' },
  SESSION_STATE_INVALID: { status: 409, message: '场次当前状态不支持此操作' },
  /** A reservation would hold back more than 15% of a session's tickets (大型演出 85% 公开销售). */
  PUBLIC_SHARE_TOO_LOW: { status: 409, message: '预留后公开销售的票将低于85%，不能预留' },
  /** A complimentary ticket asked for a unit that is not reserved (reserve it first). */
  UNIT_NOT_RESERVED: { status: 409, message: '所选座位或数量未预留，请先预留' },
  /** The reserved unit holds a live complimentary ticket: void it before releasing or reissuing. */
  UNIT_IN_USE: { status: 409, message: '所选预留票已赠出，请先作废赠票' },
  /** No live complimentary ticket has this claim code. */
  COMP_CODE_INVALID: { status: 404, message: '领取码无效或赠票已作废' },
  /** Another WeChat account claimed these complimentary tickets already. */
  COMP_ALREADY_CLAIMED: { status: 409, message: '该赠票已被其他微信账号领取' },
  /** Joining a waiting list while the tier still has tickets on sale: buy them instead. */
  WAITLIST_NOT_SOLD_OUT: { status: 409, message: '该票档尚有余票，请直接购买' },
  /** One live waiting-list entry per fan and tier. */
  WAITLIST_EXISTS: { status: 409, message: '您已在该票档的候补队列中' },
  /** Returned tickets of a tier go to its waiting list first: not sold directly while it has fans waiting. */
  WAITLIST_FIRST: { status: 409, message: '退回的票正在优先分配给候补用户，请加入候补' },
  /** The session has no waiting list (it is not selling). */
  WAITLIST_UNAVAILABLE: { status: 409, message: '本场次暂不支持候补' },
  /** 开售提醒 on a show that is on sale already, or has no session still to open. */
  SALE_REMINDER_UNAVAILABLE: { status: 409, message: '该演出已开售或暂无待开售场次，无需开售提醒' },
  PAYLOAD_TOO_LARGE: { status: 413, message: '请求内容过大' },
  METHOD_NOT_ALLOWED: { status: 405, message: '不支持该请求方法' },
  TICKET_NOT_BINDABLE: { status: 409, message: '该门票已失效，不能绑定设备' },
  REBIND_FROZEN: { status: 409, message: '临近开演，主办方已停止更换设备，请使用原手机入场' },
  /** Ticket transfers (转赠): the organiser does not allow them for this show. */
  TRANSFER_DISABLED: { status: 409, message: '本场演出不支持转赠' },
  /** Past the organiser's cutoff before the session starts (or the session was cancelled). */
  TRANSFER_CLOSED: { status: 409, message: '已过转赠截止时间，不能转赠' },
  /** The show allows one transfer per ticket and this one was transferred already. */
  TRANSFER_ONCE: { status: 409, message: '该门票已转赠过一次，不能再次转赠' },
  TRANSFER_SELF: { status: 409, message: '不能接收自己转赠的门票' },
  /** A wrong, cancelled, expired or already used transfer code (one-time). */
  TRANSFER_CODE_INVALID: { status: 404, message: '转赠链接无效或已失效' },
  /** Checked in, refunding, voided, already transferred, or an offer is open elsewhere. */
  TICKET_NOT_TRANSFERABLE: { status: 409, message: '该门票当前状态不能转赠' },
  /** A transferred ticket is not refundable (the receiver got it at face value, the money is the giver's). */
  TICKET_TRANSFERRED: { status: 409, message: '已转赠的门票不支持退票' },
  /** A transfer offer of the ticket is open: it must be cancelled before a refund. */
  TICKET_TRANSFERRING: { status: 409, message: '门票正在转赠中，请先取消转赠' },
  RATE_LIMITED: { status: 429, message: '请求过于频繁，请稍后再试' },
  INTERNAL: { status: 500, message: '系统繁忙，请稍后再试' },
  SERVICE_UNAVAILABLE: { status: 503, message: '系统繁忙，请稍后再试' },
  /** This instance is saturated (event-loop lag or requests in flight): refused early, with Retry-After. */
  OVERLOADED: { status: 503, message: '当前访问人数过多，请稍后再试' },
  /** WeChat Pay is slow or failing and its circuit breaker is open: nothing was sent to WeChat. */
  WECHAT_BUSY: { status: 503, message: '微信支付繁忙，请稍后再试' },
  /** An operator paused this non-essential feature during a peak (degradation switch). */
  FEATURE_PAUSED: { status: 503, message: '该功能暂时关闭，请稍后再试' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

export interface ApiErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(ERRORS, code);
}
