import { refundTerms as termsAt, type RefundTerms, type RefundTier } from '@showtix/shared-types';

export type { RefundTerms };

/**
 * The show's published tiers, as the fan's app shows them (one rule, in shared-types): the first
 * tier (most hours before the start first) whose deadline has not passed applies; 100% or no
 * applicable tier means refunds are closed. The fee is rounded down, in the buyer's favour.
 * A postponed session's window (`fullRefundUntil`) overrides the tiers while it is open.
 */
export function refundTerms(
  rules: RefundTier[],
  startsAt: Date,
  now: Date,
  amountFen: number,
  fullRefundUntil?: Date | null,
): RefundTerms {
  return termsAt(rules, startsAt.getTime(), now.getTime(), amountFen, fullRefundUntil?.getTime());
}
