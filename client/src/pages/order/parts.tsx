import { Button, Text, View } from '@tarojs/components';
import type { Dispatch, ReactNode, SetStateAction } from 'react';
import type { Order } from '@showtix/shared-types';
import BusyButton from '../../components/BusyButton';
import SessionChangeNote from '../../components/SessionChangeNote';
import { go } from '../../routes';
import type { SessionContext } from '../../services/context';
import { flag } from '../../utils/flag';
import { formatYuan } from '../../utils/money';
import { formatDateTime } from '../../utils/time';
import { ExchangeToggle } from './ExchangePanel';
import type { OrderView } from './logic';

/** 订单编号, 下单时间, 联系手机, where an exchange came from, and what a refund would cost now. */
export function OrderFacts({
  order,
  feeLine,
  feePercent,
}: {
  order: Order;
  feeLine: boolean;
  feePercent: number;
}) {
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

/** A secondary action of the bottom bar, held back while another action runs. */
function BarButton(p: { testid: string; busy: boolean; onTap: () => void; children: ReactNode }) {
  return (
    <Button className="btn btn--ghost" data-testid={p.testid} disabled={flag(p.busy)} onClick={p.onTap}>
      {p.children}
    </Button>
  );
}

/** The show, its session's time (and any change to it) and the venue. */
export function SessionCard({ order, ctx }: { order: Order; ctx: SessionContext | undefined }) {
  return (
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
  );
}

export interface OrderBarProps {
  order: Order;
  ctx: SessionContext | undefined;
  view: OrderView;
  busy: boolean;
  picking: boolean;
  exchangeOffered: boolean;
  exchanging: boolean;
  onExchange: Dispatch<SetStateAction<boolean>>;
  onPick: () => void;
  cancel: () => void;
  pay: () => void;
  refund: () => void;
}

/** The order's actions: pay or cancel while pending, refunds, 改签, tickets, buy again. */
export function OrderBar(p: OrderBarProps) {
  const { order, ctx, view, busy } = p;
  return (
    <View className="bottom-bar">
      {order.status === 'pending' ? (
        <>
          <BarButton testid="cancel-order" busy={busy} onTap={p.cancel}>
            取消订单
          </BarButton>
          <BusyButton className="btn btn--primary btn--wide" testid="pay-again" busy={busy} onClick={p.pay}>
            去支付 {formatYuan(order.amountFen)}
          </BusyButton>
        </>
      ) : null}
      {view.refundable ? (
        <BarButton testid="refund-order" busy={busy} onTap={p.refund}>
          申请退款
        </BarButton>
      ) : null}
      {view.perTicket ? (
        <BarButton testid="refund-pick-open" busy={busy} onTap={p.onPick}>
          {p.picking ? '收起' : view.refundable ? '部分退票' : '退票'}
        </BarButton>
      ) : null}
      {p.exchangeOffered ? <ExchangeToggle open={p.exchanging} busy={busy} onToggle={p.onExchange} /> : null}
      {order.status === 'ticketed' ? (
        <Button className="btn btn--primary btn--wide" onClick={() => go('tickets')}>
          查看电子票
        </Button>
      ) : null}
      {view.buyAgain && ctx ? (
        <Button className="btn btn--primary btn--wide" onClick={() => go('show', { id: ctx.show.id })}>
          重新购买
        </Button>
      ) : null}
    </View>
  );
}
