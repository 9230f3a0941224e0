import type { RefundTier } from './api';

export interface RefundTerms {
  allowed: boolean;
  feePercent: number;
  feeFen: number;
  refundFen: number;
}

/**
 * A buyer's refund under the show's published tiers, the one rule of the server (which charges
 * it) and the fan app (which announces it): the first tier, most hours before the start first,
 * whose deadline has not passed applies; a fee of 100%, no applicable tier or a started show
 * mean refunds are closed. The fee is rounded down, in the buyer's favour. Times in epoch ms.
 * A postponed session's refund window (`fullRefundUntilMs`, the organiser's date) overrides the
 * tiers: until it closes every refund is in full.
 */
export function refundTerms(
  rules: RefundTier[],
  startsAtMs: number,
  nowMs: number,
  amountFen: number,
  fullRefundUntilMs?: number | null,
): RefundTerms {
  if (fullRefundUntilMs != null && nowMs < fullRefundUntilMs)
    return { allowed: true, feePercent: 0, feeFen: 0, refundFen: amountFen };
  const hoursLeft = (startsAtMs - nowMs) / 3_600_000;
  const tier = [...rules]
    .sort((a, b) => b.hoursBeforeStart - a.hoursBeforeStart)
    .find((t) => hoursLeft >= t.hoursBeforeStart);
  if (!tier || hoursLeft <= 0 || tier.feePercent >= 100)
    return { allowed: false, feePercent: 100, feeFen: amountFen, refundFen: 0 };
  const feeFen = Math.floor((amountFen * tier.feePercent) / 100);
  return { allowed: true, feePercent: tier.feePercent, feeFen, refundFen: amountFen - feeFen };
}
