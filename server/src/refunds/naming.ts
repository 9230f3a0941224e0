import type { PaymentRefundKind, RefundKind } from './repo';

// A refund's number at WeChat, its retry timing and its words to the fan: fixed per kind.

/** After this many refused sends, a refund is also handed to an operator (it keeps retrying). */
export const RESEND_CASE_AFTER = 6;

/**
 * When a refund WeChat refused may be sent again: NOT_ENOUGH waits for the merchant's balance
 * to be topped up (10 minutes, doubling, at most 6 hours); anything else 1 minute, doubling, at
 * most 1 hour.
 */
export function resendDelayMs(code: string, attempts: number): number {
  const [base, cap] = code === 'NOT_ENOUGH' ? [600_000, 6 * 3_600_000] : [60_000, 3_600_000];
  return Math.min(cap, base * 2 ** Math.min(attempts, 10));
}

const PREFIX: Record<RefundKind, string> = {
  order: 'RF',
  late: 'RL',
  duplicate: 'RD',
  currency: 'RC',
  exchange: 'RX',
  fee: 'RE',
};

/** What the fan reads (WeChat's refund reason) and which notice tells them, per system refund. */
export const PAYMENT_REFUND: Record<
  PaymentRefundKind,
  { reason: string; template: 'late_refund' | 'returned' }
> = {
  late: { reason: '订单已取消且座位已售出，自动退款', template: 'late_refund' },
  duplicate: { reason: '重复支付，自动退款', template: 'late_refund' },
  currency: { reason: '支付币种不符，自动退款', template: 'returned' },
};

/**
 * Stable per payment, kind and number: a retried refund reuses it, so WeChat refunds at most
 * once. The first refund keeps the form it always had; later order refunds of the same payment
 * (per-ticket refunds) add their number, so each is its own refund at WeChat.
 */
export function outRefundNo(orderNo: string, paymentId: string, kind: RefundKind, seq = 1): string {
  return `${PREFIX[kind]}${orderNo}P${paymentId}${seq > 1 ? `N${seq}` : ''}`;
}
