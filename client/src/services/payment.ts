import Taro from '@tarojs/taro';
import type { PayResponse } from '@showtix/shared-types';

export type PayOutcome = 'confirmed' | 'cancelled' | 'redirected';

/**
 * WeChat: the prepay parameters go to wx.requestPayment; its success means the fan confirmed,
 * not that the server has the money yet (the caller polls the order). payment.h5.ts is the
 * browser's variant. Only services/pay.ts calls this.
 */
export async function openPaySheet(_orderNo: string, pay: PayResponse): Promise<PayOutcome> {
  const { payParams } = pay;
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
    // The fan closed the sheet (or WeChat refused it): the order stays pending, payable again.
    return 'cancelled';
  }
}
