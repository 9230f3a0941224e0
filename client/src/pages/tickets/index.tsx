import { Button, ScrollView, Text, View } from '@tarojs/components';
import { stopPullDownRefresh, useDidShow, usePullDownRefresh } from '@tarojs/taro';
import { useRef } from 'react';
import ErrorPanel from '../../components/ErrorPanel';
import Loading, { Empty } from '../../components/Loading';
import { useSessionContext } from '../../components/OrderCard';
import QrCode from '../../components/QrCode';
import TabBar from '../../components/TabBar';
import { useLoad } from '../../hooks/useLoad';
import { switchTab } from '../../routes';
import { getOrder } from '../../services/orders';
import { listTickets } from '../../services/tickets';
import type { FanOrder, Ticket } from '../../services/types';
import { runRemedy } from '../../utils/remedy';
import { formatDateTime } from '../../utils/time';
import './index.scss';

const STATUS_TEXT: Record<string, string> = {
  valid: '可使用',
  used: '已检票',
  refunding: '退票中',
  voided: '已作废',
};

/** Seat or zone of a ticket: from the ticket itself when the server says it, else its order. */
export function ticketPlace(t: Ticket, orders: Map<string, FanOrder>): string {
  if (t.seat) return `${t.seat.section} ${t.seat.row}排${t.seat.number}座`;
  if (t.zoneName) return t.zoneName;
  const items = orders.get(t.orderNo)?.items ?? [];
  const item = t.seatId ? items.find((i) => i.seatId === t.seatId) : items.find((i) => i.zoneId === t.zoneId);
  if (item?.seatId) return `${item.section} ${item.row}排${item.number}座`;
  return item?.zoneName ?? (t.seatId ? '对号入座' : '站席');
}

async function loadWallet(): Promise<{ tickets: Ticket[]; orders: Map<string, FanOrder> }> {
  const tickets = await listTickets();
  // Orders only for tickets that do not name their own seat or zone.
  const orderNos = [...new Set(tickets.filter((t) => !t.seat && !t.zoneName).map((t) => t.orderNo))];
  const orders = await Promise.all(orderNos.map((no) => getOrder(no).catch(() => undefined)));
  return {
    tickets,
    orders: new Map(orders.filter((o): o is FanOrder => Boolean(o)).map((o) => [o.orderNo, o])),
  };
}

function TicketCard({ t, place }: { t: Ticket; place: string }) {
  // The session is looked up only when the ticket does not carry its show, time and venue.
  const ctx = useSessionContext(t.showTitle && t.startsAt && t.venueName ? undefined : t.sessionId);
  const title = t.showTitle ?? ctx?.show.title ?? '电子票';
  const startsAt = t.startsAt ?? ctx?.session.startsAt;
  const venue = t.venueName ?? ctx?.show.venue.name;
  const usable = t.status === 'valid';
  return (
    <View className={`ticket ${usable ? '' : 'ticket--off'}`} data-testid="ticket">
      <View className="ticket__top">
        <Text className="ticket__title">{title}</Text>
        {startsAt ? <Text className="ticket__meta">{formatDateTime(startsAt)}</Text> : null}
        {venue ? <Text className="ticket__meta">{venue}</Text> : null}
        <Text className="ticket__seat">{place}</Text>
      </View>
      <View className="ticket__tear" />
      <View className="ticket__bottom">
        <QrCode text={t.qr} id={t.ticketId} />
        <Text className="ticket__status">{STATUS_TEXT[t.status] ?? t.status}</Text>
        <Text className="ticket__no">票号 {t.ticketId}</Text>
        <Text className="ticket__hint">入场时出示此二维码，请勿截图转发</Text>
      </View>
    </View>
  );
}

export default function TicketsPage() {
  const wallet = useLoad(loadWallet, []);
  const shownOnce = useRef(false);
  useDidShow(() => {
    if (shownOnce.current) wallet.reload();
    shownOnce.current = true;
  });
  usePullDownRefresh(() => {
    wallet.reload();
    stopPullDownRefresh();
  });
  const data = wallet.data;
  return (
    <View className="page page--tabbed tickets">
      <ScrollView scrollY className="tickets__list">
        {wallet.loading && !data ? <Loading /> : null}
        {wallet.error && !data ? (
          <ErrorPanel
            variant="inline"
            error={wallet.error}
            onAction={() => runRemedy(wallet.error!, {}, wallet.reload)}
          />
        ) : null}
        {data && data.tickets.length === 0 ? (
          <Empty text="票夹空空，买到的电子票会出现在这里">
            <Button className="btn btn--primary" onClick={() => switchTab('home')}>
              去买票
            </Button>
          </Empty>
        ) : null}
        {data?.tickets.map((t) => (
          <TicketCard key={t.ticketId} t={t} place={ticketPlace(t, data.orders)} />
        ))}
      </ScrollView>
      <TabBar current="tickets" />
    </View>
  );
}
