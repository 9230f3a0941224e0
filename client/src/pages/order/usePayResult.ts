import Taro from '@tarojs/taro';
import { useEffect, useState } from 'react';
import { waitForSettled } from '../../services/orders';
import type { Order } from '@showtix/shared-types';

/**
 * Back from paying (the H5 cashier's ?result=, or wx.requestPayment in WeChat): on success the
 * server hears from WeChat Pay a moment later, so the order is polled until it is ticketed.
 */
export function usePayResult(
  orderNo: string,
  result: string | undefined,
  onSettled: (o: Order) => void,
): boolean {
  const [waiting, setWaiting] = useState(result === 'success');
  useEffect(() => {
    if (result === 'cancel') void Taro.showToast({ title: '已取消支付，可稍后继续支付', icon: 'none' });
    if (result !== 'success') return undefined;
    let stopped = false;
    waitForSettled(orderNo, { isCancelled: () => stopped }).then(
      (o) => {
        if (stopped) return;
        setWaiting(false);
        onSettled(o);
        if (o.status !== 'ticketed')
          void Taro.showToast({ title: '支付结果确认中，请稍后刷新', icon: 'none' });
      },
      () => !stopped && setWaiting(false),
    );
    return () => {
      stopped = true;
    };
    // Runs once per arrival with a result.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [orderNo, result]);
  return waiting;
}
