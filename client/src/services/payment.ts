import Taro from '@tarojs/taro';
import { payOrder } from './orders';

export type PayOutcome = 'confirmed' | 'cancelled' | 'redirected';

/**
 * WeChat: the prepay parameters go to wx.requestPayment; its success means the fan confirmed,
 * not that the server has the money yet (the caller polls the order). payment.h5.ts is the
 * browser's variant.
 */
export async function startPayment(orderNo: string): Promise<PayOutcome> {
  const { payParams } = await payOrder(orderNo);
  try {
    await Taro.requestPayment({
      timeStamp: payParams.timeStamp,
      nonceStr: payParams.nonceStr,
      package: payParams.package,
      signType: payParams.signType as 'MD5' | 'HMAC-SHA256' | 'RSA',
      paySign: payParams.paySign,
    });
    return 'confirmed';
  } catch {
    return 'cancelled';
  }
}
