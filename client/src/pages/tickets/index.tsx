import { Button, ScrollView, Text, View } from '@tarojs/components';
import { stopPullDownRefresh, useDidShow, usePullDownRefresh } from '@tarojs/taro';
import { useRef } from 'react';
import ErrorPanel from '../../components/ErrorPanel';
import Loading, { Empty } from '../../components/Loading';
import QrCode from '../../components/QrCode';
import TabBar from '../../components/TabBar';
import { useLoad } from '../../hooks/useLoad';
import { switchTab } from '../../routes';
import { listTickets } from '../../services/tickets';
import type { Ticket } from '@showtix/shared-types';
import { runRemedy } from '../../utils/remedy';
import { formatDateTime } from '../../utils/time';
import './index.scss';

const STATUS_TEXT: Record<string, string> = {
  valid: '可使用',
  used: '已检票',
  refunding: '退票中',
  voided: '已作废',
};

/** Why a ticket that cannot be used shows no code. */
const OFF_HINT: Record<string, string> = {
  used: '已核验入场',
  refunding: '退票处理中，暂不能入场',
  voided: '此票已作废，不能入场',
};

/** Usable tickets first; otherwise the server's order (by session time). */
export function walletOrder(tickets: Ticket[]): Ticket[] {
  return [...tickets].sort((a, b) => Number(b.status === 'valid') - Number(a.status === 'valid'));
}

/** Seat or zone of a ticket, as printed on it. */
export function ticketPlace(t: Ticket): string {
  if (t.seat) return `${t.seat.section} ${t.seat.row}排${t.seat.number}座`;
  return t.zoneName ?? (t.seatId ? '对号入座' : '站席');
}

function TicketCard({ t }: { t: Ticket }) {
  const usable = t.status === 'valid';
  return (
    <View className={`ticket ${usable ? '' : 'ticket--off'}`} data-testid="ticket" data-status={t.status}>
      <View className="ticket__top">
        <Text className="ticket__title">{t.showTitle}</Text>
        <Text className="ticket__meta">{formatDateTime(t.startsAt)}</Text>
        <Text className="ticket__meta">{t.venueName}</Text>
        <Text className="ticket__seat">{ticketPlace(t)}</Text>
      </View>
      <View className="ticket__tear" />
      <View className="ticket__bottom">
        {usable ? (
          <QrCode text={t.qr} id={t.ticketId} />
        ) : (
          // No code to show at the gate for a ticket that will not open it.
          <View className="ticket__stamp" data-testid="ticket-stamp">
            <Text>{STATUS_TEXT[t.status] ?? t.status}</Text>
          </View>
        )}
        {usable ? <Text className="ticket__status">{STATUS_TEXT.valid}</Text> : null}
        <Text className="ticket__no">票号 {t.ticketId}</Text>
        <Text className="ticket__hint">
          {usable ? '入场时出示此二维码，请勿截图转发' : (OFF_HINT[t.status] ?? '此票不能入场')}
        </Text>
      </View>
    </View>
  );
}

export default function TicketsPage() {
  const wallet = useLoad(listTickets, []);
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
        {data && data.length === 0 ? (
          <Empty text="票夹空空，买到的电子票会出现在这里">
            <Button className="btn btn--primary" onClick={() => switchTab('home')}>
              去买票
            </Button>
          </Empty>
        ) : null}
        {data ? walletOrder(data).map((t) => <TicketCard key={t.ticketId} t={t} />) : null}
      </ScrollView>
      <TabBar current="tickets" />
    </View>
  );
}
