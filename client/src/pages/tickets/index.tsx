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

const STATUS_TEXT: Record<string, string> = { valid: '可使用', used: '已检票', refunded: '已退票', void: '已作废' };

/** Seat or zone of a ticket: from the ticket itself when the server says it, else its order. */
export function ticketPlace(t: Ticket, orders: Map<string, FanOrder>): string {
  if (t.section && t.row && t.number) return `${t.section} ${t.row}排${t.number}座`;
  if (t.zoneName) return t.zoneName;
  const items = orders.get(t.orderNo)?.items ?? [];
  const item = t.seatId ? items.find((i) => i.seatId === t.seatId) : items.find((i) => i.zoneId === t.zoneId);
  if (item?.seatId) return `${item.section} ${item.row}排${item.number}座`;
  return item?.zoneName ?? (t.seatId ? '对号入座' : '站席');
}

async function loadWallet(): Promise<{ tickets: Ticket[]; orders: Map<string, FanOrder> }> {
  const tickets = await listTickets();
  const orderNos = [...new Set(tickets.map((t) => t.orderNo))];
  const orders = await Promise.all(orderNos.map((no) => getOrder(no).catch(() => undefined)));
  return { tickets, orders: new Map(orders.filter((o): o is FanOrder => Boolean(o)).map((o) => [o.orderNo, o])) };
}

function TicketCard({ t, place }: { t: Ticket; place: string }) {
  const ctx = useSessionContext(t.sessionId);
  const usable = t.status === 'valid' || t.status === undefined;
  return (
    <View className={`ticket ${usable ? '' : 'ticket--off'}`} data-testid='ticket'>
      <View className='ticket__top'>
        <Text className='ticket__title'>{ctx?.show.title ?? '电子票'}</Text>
        {ctx ? <Text className='ticket__meta'>{formatDateTime(ctx.session.startsAt)}</Text> : null}
        {ctx ? <Text className='ticket__meta'>{ctx.show.venue.name}</Text> : null}
        <Text className='ticket__seat'>{place}</Text>
      </View>
      <View className='ticket__tear' />
      <View className='ticket__bottom'>
        <QrCode text={t.qr} id={t.ticketId} />
        <Text className='ticket__status'>{STATUS_TEXT[t.status] ?? t.status}</Text>
        <Text className='ticket__no'>票号 {t.ticketId}</Text>
        <Text className='ticket__hint'>入场时出示此二维码，请勿截图转发</Text>
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
    <View className='page page--tabbed tickets'>
      <ScrollView scrollY className='tickets__list'>
        {wallet.loading && !data ? <Loading /> : null}
        {wallet.error && !data ? <ErrorPanel variant='inline' error={wallet.error} onAction={() => runRemedy(wallet.error!, {}, wallet.reload)} /> : null}
        {data && data.tickets.length === 0 ? (
          <Empty text='票夹空空，买到的电子票会出现在这里'>
            <Button className='btn btn--primary' onClick={() => switchTab('home')}>
              去买票
            </Button>
          </Empty>
        ) : null}
        {data?.tickets.map((t) => <TicketCard key={t.ticketId} t={t} place={ticketPlace(t, data.orders)} />)}
      </ScrollView>
      <TabBar current='tickets' />
    </View>
  );
}
