import type { AdminShowDetail } from '@showtix/shared-types';

type RefundRule = AdminShowDetail['refundRules'][number];

/** One refund rule's fee as the operator reads it. */
export function refundFeeText(r: RefundRule): string {
  return r.feePercent === 0 ? '免费退' : r.feePercent === 100 ? '不可退' : `收 ${r.feePercent}% 手续费`;
}

export function purchaseLimitText(show: AdminShowDetail): string {
  return show.showPurchaseLimit ? `每人 ${show.showPurchaseLimit} 张` : '不限（按场次限购）';
}

export function exchangeText(show: AdminShowDetail): string {
  return show.exchangeRules?.allowed ? `允许，开演前 ${show.exchangeRules.cutoffMinutes} 分钟截止` : '不支持';
}
