import type { PayParams, PayResponse } from '@showtix/shared-types';
import { appId } from './config';
import { ApiError } from './errors';
import { ROUTES } from '../routes';

export type PayOutcome = 'confirmed' | 'cancelled' | 'redirected';

/** The order page's absolute URL, where the cashier sends the fan back with ?result=. */
export function orderReturnUrl(
  orderNo: string,
  loc: Pick<Location, 'origin' | 'pathname'> = window.location,
): string {
  return `${loc.origin}${loc.pathname}#${ROUTES.order}?orderNo=${encodeURIComponent(orderNo)}`;
}

/**
 * The cashier page with exactly what wx.requestPayment would get (timeStamp, nonceStr, package,
 * signType, paySign) and this build's AppID: the simulator checks them as WeChat does.
 */
export function cashierHref(
  cashierUrl: string,
  payParams: PayParams,
  returnUrl: string,
  app: string | undefined = appId(),
): string {
  const q = new URLSearchParams({
    ...(app ? { appId: app } : {}),
    timeStamp: payParams.timeStamp,
    nonceStr: payParams.nonceStr,
    package: payParams.package,
    signType: payParams.signType,
    paySign: payParams.paySign,
    return_url: returnUrl,
  });
  const sep = cashierUrl.includes('?') ? '&' : '?';
  return `${cashierUrl}${sep}${q.toString()}`;
}

/**
 * Browsers cannot call wx.requestPayment: the fan pays in the simulator's cashier page, which
 * sends them back to 订单详情 with ?result=success or ?result=cancel (the order kept pending).
 * Only services/pay.ts calls this.
 */
export async function openPaySheet(orderNo: string, pay: PayResponse): Promise<PayOutcome> {
  const { cashierUrl, payParams } = pay;
  if (!cashierUrl)
    throw new ApiError({ code: 'SERVICE_UNAVAILABLE', status: 503, message: '收银台暂不可用，请稍后重试' });
  window.location.href = cashierHref(cashierUrl, payParams, orderReturnUrl(orderNo));
  return 'redirected';
}
