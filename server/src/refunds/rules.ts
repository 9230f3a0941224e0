import type { RefundTier } from '@showtix/shared-types';

export interface RefundTerms {
  allowed: boolean;
  feePercent: number;
  feeFen: number;
  refundFen: number;
}

/**
 * The show's published tiers: the first tier (most hours before the start first) whose
 * deadline has not passed applies; 100% or no applicable tier means refunds are closed.
 * The fee is rounded down, in the buyer's favour.
 */
export function refundTerms(rules: RefundTier[], startsAt: Date, now: Date, amountFen: number): RefundTerms {
  const hoursLeft = (startsAt.getTime() - now.getTime()) / 3_600_000;
  const tier = [...rules]
    .sort((a, b) => b.hoursBeforeStart - a.hoursBeforeStart)
    .find((t) => hoursLeft >= t.hoursBeforeStart);
  if (!tier || hoursLeft <= 0 || tier.feePercent >= 100)
    return { allowed: false, feePercent: 100, feeFen: amountFen, refundFen: 0 };
  const feeFen = Math.floor((amountFen * tier.feePercent) / 100);
  return { allowed: true, feePercent: tier.feePercent, feeFen, refundFen: amountFen - feeFen };
}
