import { fetchPayParams } from './orders';
import { openPaySheet, type PayOutcome } from './payment';

export type { PayOutcome };

/**
 * The one function that requests payment for a pending order, from 确认订单 (right after the
 * order is placed: one tap from 提交订单 to WeChat Pay) and from 订单详情 (paying again after
 * the sheet was closed). It asks the server for the prepay parameters, then opens WeChat Pay
 * (`wx.requestPayment`, or the simulator's cashier in H5: payment(.h5).ts).
 *
 * Anything to ask the fan just before paying (e.g. consent to order notices) belongs here, as
 * the first line, so that both pages ask it and it runs as close to the fan's tap as possible. 'cancelled' means the fan closed the
 * sheet: the order stays pending until its expireAt.
 */
export async function payOrder(orderNo: string): Promise<PayOutcome> {
  const pay = await fetchPayParams(orderNo);
  return openPaySheet(orderNo, pay);
}
