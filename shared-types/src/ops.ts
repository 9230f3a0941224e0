import type { NoticeProblem } from './notices';

/** The admin's operations page (GET /api/v1/admin/ops): what recovery could not settle alone. */
export interface OpsOverview {
  deadLetters: {
    /** Messages in each consumer's dead-letter queue; null when RabbitMQ is unreachable. */
    queues: Record<string, number> | null;
    parked: ParkedMessage[];
  };
  stuckPayments: { orderNo: string; amountFen: number; paidAt: string }[];
  stuckRefunds: StuckRefund[];
  refundCases: RefundCase[];
  /** Money WeChat took in another currency than CNY, not refunded yet (refunded automatically). */
  foreignCurrency: ForeignCurrencyPayment[];
  /** Notices that did not reach the fan (no consent, refused by WeChat, failed), grouped. */
  noticeProblems: NoticeProblem[];
}

export interface ForeignCurrencyPayment {
  paymentId: string;
  orderNo: string;
  transactionId: string;
  amountFen: number;
  currency: string;
  refundedFen: number;
  /** Its automatic refund (null: none yet, e.g. recorded before refunds were automatic). */
  refundId: string | null;
  /** requested, processing, succeeded, abnormal, closed; null without a refund. */
  refundStatus: string | null;
  receivedAt: string;
}

export interface ParkedMessage {
  id: string;
  queue: string;
  messageId: string;
  payload: string;
  error: string | null;
  redrives: number;
  parkedAt: string;
}

export interface StuckRefund {
  refundId: string;
  orderNo: string;
  kind: string;
  outRefundNo: string;
  amountFen: number;
  status: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

export interface RefundCase {
  refundId: string;
  orderNo: string;
  outRefundNo: string;
  amountFen: number;
  /** abnormal: WeChat could not pay the fan's card; stuck: WeChat refused the refund again and again. */
  reason: string;
  refundStatus: string;
  openedAt: string;
}

export const REFUND_CASE_RESOLUTIONS = ['paid_offline', 'not_owed'] as const;
export type RefundCaseResolution = (typeof REFUND_CASE_RESOLUTIONS)[number];
