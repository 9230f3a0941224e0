import { ApiError } from './errors';
import { payOrder } from './orders';
import { ROUTES } from '../routes';

export type PayOutcome = 'confirmed' | 'cancelled' | 'redirected';

/** The order page's absolute URL, where the cashier sends the fan back with ?result=. */
export function orderReturnUrl(
  orderNo: string,
  loc: Pick<Location, 'origin' | 'pathname'> = window.location,
): string {
  return `${loc.origin}${loc.pathname}#${ROUTES.order}?orderNo=${encodeURIComponent(orderNo)}`;
}

export function cashierHref(cashierUrl: string, returnUrl: string): string {
  const sep = cashierUrl.includes('?') ? '&' : '?';
  return `${cashierUrl}${sep}return_url=${encodeURIComponent(returnUrl)}`;
}

/** Browsers cannot call wx.requestPayment: the fan pays in the simulator's cashier page. */
export async function startPayment(orderNo: string): Promise<PayOutcome> {
  const { cashierUrl } = await payOrder(orderNo);
  if (!cashierUrl) throw new ApiError('SERVICE_UNAVAILABLE', 503, '收银台暂不可用，请稍后重试');
  window.location.href = cashierHref(cashierUrl, orderReturnUrl(orderNo));
  return 'redirected';
}
