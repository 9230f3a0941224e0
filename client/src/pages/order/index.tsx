import { Button, ScrollView, Text, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import BusyButton from '../../components/BusyButton';
import { RemedySheet } from '../../components/ErrorPanel';
import LoadState from '../../components/LoadState';
import { useSessionContext } from '../../components/OrderCard';
import { OrderBadge } from '../../components/StatusBadge';
import { useCountdown } from '../../hooks/useCountdown';
import { useLoad } from '../../hooks/useLoad';
import { go, replace } from '../../routes';
import type { SessionContext } from '../../services/context';
import { errorView, type ErrorView } from '../../services/errors';
import { cancelOrder, getOrder, refundOrder } from '../../services/orders';
import { payOrder } from '../../services/pay';
import { askNoticeConsent, PAY_NOTICE_KINDS } from '../../utils/subscribe';
import type { Order, OrderRefund } from '@showtix/shared-types';
import { formatYuan, percentOfFen } from '../../utils/money';
import { refundFeePercent } from '../../utils/refund';
import SessionChangeNote from '../../components/SessionChangeNote';
import { formatCountdown, formatDateTime } from '../../utils/time';
import RefundTimeline, { refundOpen } from './RefundTimeline';
import TicketRefundPicker, { handedOn, offersTicketRefund } from './TicketRefundPicker';
import ItemsCard from './ItemsCard';
import { ExchangeCards, ExchangeToggle, useExchangeOffer } from './ExchangePanel';
import { usePayResult } from './usePayResult';
import './index.scss';
import { flag } from '../../utils/flag';

/** The refund's state in the fan's words, with the money it returns. */
export function refundText(r: OrderRefund): string {
  const money = `${formatYuan(r.amountFen)}${r.feeFen > 0 ? `（已扣手续费 ${formatYuan(r.feeFen)}）` : ''}`;
  switch (r.status) {
    case 'requested':
      return `退款申请已提交，预计退回 ${money}`;
    case 'processing':
      return `退款处理中，预计退回 ${money}`;
    case 'succeeded':
      return `${money} 已原路退回微信支付`;
    case 'abnormal':
      return '退款异常，客服将尽快处理';
    case 'closed':
      return '退款已关闭';
    default:
      return String(r.status);
  }
}

/** Some of the order's tickets are refunded or being refunded, the others not. */
function partlyRefunded(order: Order): boolean {
  const live = order.items.filter((it) => it.refundStatus && it.refundStatus !== 'closed').length;
  return live > 0 && live < order.items.length;
}

function StatusHead({ order, waiting }: { order: Order; waiting: boolean }) {
  const left = useCountdown(order.status === 'pending' ? order.expireAt : null);
  let text = '';
  if (waiting) text = '支付成功，正在出票…';
  else if (order.status === 'pending')
    text = left > 0 ? `请在 ${formatCountdown(left)} 内完成支付` : '支付已超时，订单即将取消';
  // While a refund is open its tickets are locked at the gate: never tell the fan to show them.
  else if (refundOpen(order.refund) && partlyRefunded(order)) text = '所选门票退票处理中，其余电子票仍可入场';
  else if (refundOpen(order.refund)) text = '退款处理中，电子票已停用';
  else if (order.status === 'paid') text = '支付成功，正在出票';
  else if (order.status === 'ticketed') text = '已出票，入场时请出示电子票';
  else if (order.status === 'cancelled') text = '订单已取消';
  else if (order.status === 'refunded') text = '订单已退款';
  return (
    <View
      className={`status-head status-head--${order.status}`}
      data-testid="order-status"
      data-status={order.status}
    >
      <OrderBadge status={waiting ? 'paid' : order.status} />
      <Text className="status-head__text">{text}</Text>
      {order.refund ? (
        <Text className="status-head__sub" data-testid="refund-status" data-refund={order.refund.status}>
          {refundText(order.refund)}
        </Text>
      ) : null}
    </View>
  );
}

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

/**
 * The fee a refund asked now would cost (percent; a postponed session's window makes it 0) and
 * whether to offer one: a cancelled session's orders are refunded in full without asking.
 */
/** 订单编号, 下单时间, 联系手机, where an exchange came from, and what a refund would cost now. */
function OrderFacts({ order, feeLine, feePercent }: { order: Order; feeLine: boolean; feePercent: number }) {
  return (
    <View className="card">
      <Text className="card__line">订单编号：{order.orderNo}</Text>
      <Text className="card__line">下单时间：{formatDateTime(order.createdAt)}</Text>
      {order.contactPhone ? (
        <Text className="card__line" data-testid="order-contact-phone">
          联系手机：{order.contactPhone}
        </Text>
      ) : null}
      {order.exchangedFrom ? (
        <Text className="card__line" data-testid="order-exchanged-from">
          改签自订单 {order.exchangedFrom}，改签所得门票不支持退票
        </Text>
      ) : null}
      {feeLine ? (
        <Text className="card__line">
          {feePercent >= 100
            ? '当前时段不支持退票'
            : feePercent > 0
              ? `当前退票收取 ${feePercent}% 手续费`
              : '当前可免费退票'}
        </Text>
      ) : null}
    </View>
  );
}

function refundOffer(order: Order, ctx: SessionContext | undefined) {
  const feePercent = ctx
    ? refundFeePercent(ctx.show.refundRules, ctx.session.startsAt, Date.now(), ctx.session.fullRefundUntil)
    : 100;
  // An exchange's order (改签) holds only the price difference: its tickets are not refundable.
  const live = (order.status === 'paid' || order.status === 'ticketed') && !order.exchangedFrom;
  // The whole order in one tap only while all of it is the buyer's: the server refuses a
  // transferred ticket and no longer counts an exchanged one (the picker offers the others).
  const whole = !order.items.some(handedOn);
  const refundable =
    live && whole && !order.refund && feePercent < 100 && ctx?.session.status !== 'cancelled';
  return { feePercent, refundable, whole };
}

async function confirmCancel(): Promise<boolean> {
  const ok = await Taro.showModal({
    title: '取消订单',
    content: '取消后座位将释放给其他观众，确定取消吗？',
    confirmText: '取消订单',
    cancelText: '再想想',
  });
  return ok.confirm;
}

/** The whole order's refund, with its fee under the tier in force, confirmed by the fan. */
async function confirmRefund(order: Order, feePercent: number): Promise<boolean> {
  const fee = percentOfFen(order.amountFen, feePercent);
  const content =
    fee > 0
      ? `按退票规则收取手续费 ${formatYuan(fee)}，预计退回 ${formatYuan(order.amountFen - fee)}。`
      : `将全额退回 ${formatYuan(order.amountFen)}。`;
  const ok = await Taro.showModal({
    title: '申请退款',
    content,
    confirmText: '确认退款',
    cancelText: '不退了',
  });
  return ok.confirm;
}

/** A secondary action of the bottom bar, held back while another action runs. */
function BarButton(p: { testid: string; busy: boolean; onTap: () => void; children: ReactNode }) {
  return (
    <Button className="btn btn--ghost" data-testid={p.testid} disabled={flag(p.busy)} onClick={p.onTap}>
      {p.children}
    </Button>
  );
}

export default function OrderPage() {
  const { params } = useRouter();
  const orderNo = params.orderNo ?? '';
  const loaded = useLoad(() => getOrder(orderNo), [orderNo]);
  const [order, setOrder] = useState<Order>();
  useEffect(() => setOrder(loaded.data), [loaded.data]);
  const waiting = usePayResult(orderNo, params.result, setOrder);
  const ctx = useSessionContext(order?.sessionId);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorView>();
  const [picking, setPicking] = useState(false);
  const [exchanging, setExchanging] = useState(false);
  useRefundFollowUp(orderNo, order, setOrder);
  const x = useExchangeOffer(orderNo, order, ctx);

  if (!order) {
    return (
      <View className="page">
        <LoadState loaded={loaded} />
      </View>
    );
  }
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
  const cancel = async () => {
    if (await confirmCancel()) await act(() => cancelOrder(order.orderNo));
  };
  const pay = () =>
    act(async () => {
      const outcome = await askNoticeConsent(PAY_NOTICE_KINDS).then(() => payOrder(order.orderNo));
      if (outcome === 'confirmed') replace('order', { orderNo: order.orderNo, result: 'success' });
    });
  const offer = refundOffer(order, ctx);
  const { feePercent } = offer;
  const refund = async () => {
    if (await confirmRefund(order, feePercent)) await act(() => refundOrder(order.orderNo));
  };
  const perTicket =
    offersTicketRefund(order) &&
    feePercent < 100 &&
    ctx?.session.status !== 'cancelled' &&
    !order.exchangedFrom;
  const live = (order.status === 'paid' || order.status === 'ticketed') && !order.exchangedFrom;
  // The whole order in one tap while nothing of it is refunded; chosen tickets besides.
  const refundable = offer.refundable;
  const buyAgain = order.status === 'cancelled' || order.status === 'refunded';

  // A per-ticket refund is offered on ticketed orders only, which have actions anyway.
  const hasActions =
    order.status === 'pending' || order.status === 'ticketed' || refundable || (buyAgain && Boolean(ctx));

  return (
    <View className="page page--barred order">
      <ScrollView scrollY className="order__scroll">
        <StatusHead order={order} waiting={waiting} />
        <View className="card">
          <Text className="card__title">{ctx?.show.title ?? '演出订单'}</Text>
          {ctx ? <Text className="card__sub">{formatDateTime(ctx.session.startsAt)}</Text> : null}
          {ctx ? <SessionChangeNote s={ctx.session} orderStatus={order.status} nowMs={Date.now()} /> : null}
          {ctx ? (
            <Text className="card__sub">
              {ctx.show.venue.name} · {ctx.show.venue.address}
            </Text>
          ) : null}
        </View>
        <ItemsCard order={order} />
        {picking && perTicket ? (
          <TicketRefundPicker
            order={order}
            feePercent={feePercent}
            busy={busy}
            onRefund={(ids) =>
              act(() => refundOrder(order.orderNo, undefined, ids)).then(() => setPicking(false))
            }
          />
        ) : null}
        <ExchangeCards order={order} show={ctx?.show} offer={x} open={exchanging} />
        {order.refund ? <RefundTimeline refund={order.refund} /> : null}
        <OrderFacts
          order={order}
          feeLine={live && (perTicket || (!order.refund && offer.whole))}
          feePercent={feePercent}
        />
      </ScrollView>
      {hasActions ? (
        <View className="bottom-bar">
          {order.status === 'pending' ? (
            <>
              <BarButton testid="cancel-order" busy={busy} onTap={() => void cancel()}>
                取消订单
              </BarButton>
              <BusyButton
                className="btn btn--primary btn--wide"
                testid="pay-again"
                busy={busy}
                onClick={() => void pay()}
              >
                去支付 {formatYuan(order.amountFen)}
              </BusyButton>
            </>
          ) : null}
          {refundable ? (
            <BarButton testid="refund-order" busy={busy} onTap={() => void refund()}>
              申请退款
            </BarButton>
          ) : null}
          {perTicket ? (
            <BarButton testid="refund-pick-open" busy={busy} onTap={() => setPicking((v) => !v)}>
              {picking ? '收起' : refundable ? '部分退票' : '退票'}
            </BarButton>
          ) : null}
          {x.offered ? <ExchangeToggle open={exchanging} busy={busy} onToggle={setExchanging} /> : null}
          {order.status === 'ticketed' ? (
            <Button className="btn btn--primary btn--wide" onClick={() => go('tickets')}>
              查看电子票
            </Button>
          ) : null}
          {buyAgain && ctx ? (
            <Button className="btn btn--primary btn--wide" onClick={() => go('show', { id: ctx.show.id })}>
              重新购买
            </Button>
          ) : null}
        </View>
      ) : null}
      <RemedySheet
        error={error}
        dismiss={() => setError(undefined)}
        handlers={{
          order_again: () => ctx && go('show', { id: ctx.show.id }),
          refresh_order: loaded.reload,
          retry: loaded.reload,
        }}
        reload={loaded.reload}
      />
    </View>
  );
}
