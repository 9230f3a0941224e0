import type { RefundTier } from '@showtix/shared-types';
import { refundTerms } from '../services/shared';

const byWindowDesc = (rules: RefundTier[]) =>
  [...rules].sort((a, b) => b.hoursBeforeStart - a.hoursBeforeStart);

/** "开演前 168 小时以上：免费退票", ... one line per tier, widest window first. */
export function refundRuleLines(rules: RefundTier[]): string[] {
  const sorted = byWindowDesc(rules);
  return sorted.map((r, i) => {
    const prev = sorted[i - 1];
    const when =
      r.hoursBeforeStart > 0
        ? `开演前 ${r.hoursBeforeStart} 小时以上`
        : prev
          ? `开演前 ${prev.hoursBeforeStart} 小时内`
          : '开演前';
    if (r.feePercent >= 100) return `${when}：不支持退票`;
    if (r.feePercent <= 0) return `${when}：免费退票`;
    return `${when}：收取票价 ${r.feePercent}% 手续费`;
  });
}

/**
 * The fee that applies now, in percent (shared-types' refund rule); 100 when refunds are closed.
 * A postponed session's window (`fullRefundUntil`) makes it 0 while it is open.
 */
export function refundFeePercent(
  rules: RefundTier[],
  startsAt: string,
  nowMs: number,
  fullRefundUntil?: string,
): number {
  const until = fullRefundUntil ? Date.parse(fullRefundUntil) : undefined;
  return refundTerms(rules, new Date(startsAt).getTime(), nowMs, 0, until).feePercent;
}
