import type { Faults } from './faults';

export type TradeState = 'NOTPAY' | 'SUCCESS' | 'CLOSED' | 'REFUND';
export type RefundStatus = 'PROCESSING' | 'SUCCESS' | 'CLOSED' | 'ABNORMAL';

export interface Order {
  appid: string;
  mchid: string;
  description: string;
  out_trade_no: string;
  time_expire?: string;
  attach?: string;
  goods_tag?: string;
  notify_url: string;
  amount: { total: number; currency: string };
  payer: { openid: string };
  prepay_id: string;
  /** Canonical JSON of the request, to tell a retry from a conflicting reuse of out_trade_no. */
  fingerprint: string;
  createdAt: number;
  /** Epoch ms of time_expire, if given. */
  expireAt?: number;
  trade_state: TradeState;
  transaction_id?: string;
  success_time?: string;
  paidAt?: number;
  bank_type?: string;
}

export interface Refund {
  refund_id: string;
  out_refund_no: string;
  transaction_id: string;
  out_trade_no: string;
  reason?: string;
  notify_url?: string;
  status: RefundStatus;
  /** The outcome chosen when the refund was accepted (fault refundOutcome at that time). */
  outcome: Exclude<RefundStatus, 'PROCESSING'>;
  refund: number;
  total: number;
  currency: string;
  fingerprint: string;
  createdAt: number;
  create_time: string;
  success_time?: string;
  finishedAt?: number;
}

export interface LoginCode {
  code: string;
  openid: string;
  unionid?: string;
  createdAt: number;
  used: boolean;
}

export interface SubscribeMessage {
  receivedAt: string;
  touser: string;
  template_id: string;
  page?: string;
  miniprogram_state?: string;
  lang?: string;
  data: Record<string, unknown>;
  msgid: number;
}

export interface DeliveryAttempt {
  copy: number;
  attempt: number;
  at: string;
  serial: string;
  /** HTTP status answered by the merchant, or 0 when there was no HTTP answer. */
  status: number;
  error?: string;
  responseBody?: string;
}

export type NotificationKind = 'transaction' | 'refund' | 'signtest' | 'raw';
export type NotificationState = 'held' | 'pending' | 'delivered' | 'failed' | 'dropped';

export interface NotificationRecord {
  seq: number;
  id: string;
  kind: NotificationKind;
  event_type: string;
  out_trade_no?: string;
  out_refund_no?: string;
  url: string;
  /** The exact JSON body POSTed. */
  body: string;
  /** The decrypted resource, as encrypted into the body. */
  plaintext: Record<string, unknown>;
  createdAt: string;
  copies: number;
  state: NotificationState;
  attempts: DeliveryAttempt[];
}

export interface BillFile {
  token: string;
  content: Buffer;
  gzip: boolean;
  createdAt: number;
}

/** All mutable simulator state, in memory (a restart forgets everything, like a fresh sandbox). */
export class Store {
  orders = new Map<string, Order>();
  ordersByPrepay = new Map<string, Order>();
  ordersByTransaction = new Map<string, Order>();
  refunds = new Map<string, Refund>();
  codes = new Map<string, LoginCode>();
  /** openid -> unionid, so a stable openid keeps its unionid. */
  unionids = new Map<string, string>();
  accessTokens = new Map<string, number>();
  messages: SubscribeMessage[] = [];
  /** openid -> template id -> one-time subscribe-message sends left (each accept adds one). */
  consents = new Map<string, Map<string, number>>();
  notifications: NotificationRecord[] = [];
  bills = new Map<string, BillFile>();
  faults: Faults;
  private seq = 0;

  constructor(faults: Faults) {
    this.faults = faults;
  }

  nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }

  addOrder(order: Order): void {
    this.orders.set(order.out_trade_no, order);
    this.ordersByPrepay.set(order.prepay_id, order);
  }

  refundsOf(outTradeNo: string): Refund[] {
    return [...this.refunds.values()].filter((r) => r.out_trade_no === outTradeNo);
  }
}
