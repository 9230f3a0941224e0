import type { RefundTier } from '@showtix/shared-types';

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
 * The fee that applies now, in percent; 100 when no tier allows a refund (or the show started).
 * A tier applies while the show starts at least hoursBeforeStart hours later.
 */
export function refundFeePercent(rules: RefundTier[], startsAt: string, nowMs: number): number {
  const hoursLeft = (new Date(startsAt).getTime() - nowMs) / 3600_000;
  if (hoursLeft <= 0) return 100;
  const rule = byWindowDesc(rules).find((r) => hoursLeft >= r.hoursBeforeStart);
  return rule ? rule.feePercent : 100;
}
