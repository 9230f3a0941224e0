import { useEffect, useRef, useState } from 'react';
import type { Order } from '@showtix/shared-types';
import { useSessionContext } from '../../components/OrderCard';
import { useLoad } from '../../hooks/useLoad';
import { replace } from '../../routes';
import { errorView, type ErrorView } from '../../services/errors';
import { cancelOrder, getOrder, refundOrder } from '../../services/orders';
import { payOrder } from '../../services/pay';
import { askNoticeConsent, PAY_NOTICE_KINDS } from '../../utils/subscribe';
import { useExchangeOffer } from './ExchangePanel';
import { confirmCancel, confirmRefund } from './logic';
import { usePayResult } from './usePayResult';

export const REFUND_POLL_MS = 2000;
const REFUND_POLLS_MAX = 30;

/**
 * A refund asked for settles at WeChat Pay a moment later: while this page is open the order is
 * re-read every REFUND_POLL_MS (for about a minute) until the refund leaves requested/processing.
 */
function useRefundFollowUp(orderNo: string, order: Order | undefined, setOrder: (o: Order) => void) {
  const polls = useRef(0);
  const [retry, setRetry] = useState(0);
  const open = order?.refund?.status === 'requested' || order?.refund?.status === 'processing';
  useEffect(() => {
    if (!open || polls.current >= REFUND_POLLS_MAX) return undefined;
    let live = true;
    const timer = setTimeout(() => {
      polls.current++;
      getOrder(orderNo).then(
        (o) => live && setOrder(o),
        () => live && setRetry((n) => n + 1),
      );
    }, REFUND_POLL_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [open, order, orderNo, setOrder, retry]);
}

/** 订单详情's state: the order (loaded, then as actions return it), its session, and what runs. */
export function useOrder(orderNo: string, result: string | undefined) {
  const loaded = useLoad(() => getOrder(orderNo), [orderNo]);
  const [order, setOrder] = useState<Order>();
  useEffect(() => setOrder(loaded.data), [loaded.data]);
  const waiting = usePayResult(orderNo, result, setOrder);
  const ctx = useSessionContext(order?.sessionId);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorView>();
  const [picking, setPicking] = useState(false);
  const [exchanging, setExchanging] = useState(false);
  useRefundFollowUp(orderNo, order, setOrder);
  const x = useExchangeOffer(orderNo, order, ctx);
  const act = async (fn: () => Promise<Order | void>) => {
    if (busy) return;
    setBusy(true);
    try {
      const o = await fn();
      if (o) setOrder(o);
    } catch (e) {
      setError(errorView(e));
    } finally {
      setBusy(false);
    }
  };
  const ui = { picking, setPicking, exchanging, setExchanging };
  return { loaded, order, waiting, ctx, busy, error, setError, x, act, ...ui };
}

type Act = ReturnType<typeof useOrder>['act'];

/** 取消订单, 去支付 and 申请退款 (whole order or chosen tickets), each through act. */
export function orderActions(order: Order, feePercent: number, act: Act) {
  const cancel = async () => {
    if (await confirmCancel()) await act(() => cancelOrder(order.orderNo));
  };
  const pay = () =>
    act(async () => {
      const outcome = await askNoticeConsent(PAY_NOTICE_KINDS).then(() => payOrder(order.orderNo));
      if (outcome === 'confirmed') replace('order', { orderNo: order.orderNo, result: 'success' });
    });
  const refund = async () => {
    if (await confirmRefund(order, feePercent)) await act(() => refundOrder(order.orderNo));
  };
  const refundTickets = (ids: string[]) => act(() => refundOrder(order.orderNo, undefined, ids));
  return { cancel, pay, refund, refundTickets };
}
