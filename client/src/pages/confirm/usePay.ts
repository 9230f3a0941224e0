import Taro from '@tarojs/taro';
import { useState } from 'react';
import type { Order } from '@showtix/shared-types';
import { clearDraft } from '../../services/draft';
import { errorView, type ErrorView } from '../../services/errors';
import { payOrder } from '../../services/pay';
import { replace } from '../../routes';

/**
 * Paying on 确认订单: called straight after the order is placed (one tap from 提交订单 to WeChat
 * Pay) and again from 支付 when the fan closed the sheet. A closed sheet keeps the order pending
 * on this page (and in 我的订单), with its countdown.
 */
export function usePay() {
  const [paying, setPaying] = useState(false);
  const [error, setError] = useState<ErrorView>();
  const [expired, setExpired] = useState(false);

  const pay = async (order: Order | undefined) => {
    if (!order || paying) return;
    setPaying(true);
    setError(undefined);
    try {
      const outcome = await payOrder(order.orderNo);
      if (outcome === 'confirmed') {
        clearDraft(); // bought: nothing left to confirm
        replace('order', { orderNo: order.orderNo, result: 'success' });
      } else if (outcome === 'cancelled')
        void Taro.showToast({ title: '已取消支付，订单已保留，请在倒计时内支付', icon: 'none' });
    } catch (e) {
      const view = errorView(e);
      if (view.code === 'ORDER_EXPIRED') setExpired(true);
      setError(view);
    } finally {
      setPaying(false);
    }
  };
  return { paying, error, setError, expired, pay };
}
