import { ScrollView, View } from '@tarojs/components';
import { useRouter } from '@tarojs/taro';
import { RemedySheet } from '../../components/ErrorPanel';
import LoadState from '../../components/LoadState';
import { go } from '../../routes';
import RefundTimeline from './RefundTimeline';
import TicketRefundPicker from './TicketRefundPicker';
import ItemsCard from './ItemsCard';
import { ExchangeCards } from './ExchangePanel';
import { orderView } from './logic';
import { OrderBar, OrderFacts, SessionCard } from './parts';
import StatusHead from './StatusHead';
import { orderActions, useOrder } from './useOrder';
import './index.scss';

export { refundText } from './StatusHead';
export { REFUND_POLL_MS } from './useOrder';

export default function OrderPage() {
  const { params } = useRouter();
  const orderNo = params.orderNo ?? '';
  const s = useOrder(orderNo, params.result);
  const { order, ctx, busy, loaded } = s;
  if (!order) {
    return (
      <View className="page">
        <LoadState loaded={loaded} />
      </View>
    );
  }
  const view = orderView(order, ctx);
  const a = orderActions(order, view.feePercent, s.act);
  return (
    <View className="page page--barred order">
      <ScrollView scrollY className="order__scroll">
        <StatusHead order={order} waiting={s.waiting} />
        <SessionCard order={order} ctx={ctx} />
        <ItemsCard order={order} />
        {s.picking && view.perTicket ? (
          <TicketRefundPicker
            order={order}
            feePercent={view.feePercent}
            busy={busy}
            onRefund={(ids) => a.refundTickets(ids).then(() => s.setPicking(false))}
          />
        ) : null}
        <ExchangeCards order={order} show={ctx?.show} offer={s.x} open={s.exchanging} />
        {order.refund ? <RefundTimeline refund={order.refund} /> : null}
        <OrderFacts order={order} feeLine={view.feeLine} feePercent={view.feePercent} />
      </ScrollView>
      {view.hasActions ? (
        <OrderBar
          order={order}
          ctx={ctx}
          view={view}
          busy={busy}
          picking={s.picking}
          exchangeOffered={s.x.offered}
          exchanging={s.exchanging}
          onExchange={s.setExchanging}
          onPick={() => s.setPicking((v) => !v)}
          cancel={() => void a.cancel()}
          pay={() => void a.pay()}
          refund={() => void a.refund()}
        />
      ) : null}
      <RemedySheet
        error={s.error}
        dismiss={() => s.setError(undefined)}
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
