import type { Ticket } from '@showtix/shared-types';
import { Button, ScrollView, Text, View } from '@tarojs/components';
import Taro, { stopPullDownRefresh, usePullDownRefresh } from '@tarojs/taro';
import AttendeeLine from '../../components/AttendeeLine';
import EntryNotice from '../../components/EntryNotice';
import { Empty } from '../../components/Loading';
import { FirstLoad } from '../../components/LoadState';
import RotatingQr from '../../components/RotatingQr';
import TabBar from '../../components/TabBar';
import { useLoad } from '../../hooks/useLoad';
import { useShownAgain } from '../../hooks/useShownAgain';
import { useTicker } from '../../hooks/useTicker';
import { switchTab } from '../../routes';
import { storedDeviceKey, type DeviceKey } from '../../services/device-key';
import { errorView } from '../../services/errors';
import { seatLabel } from '../../services/shared';
import { loadWallet, moveHere } from '../../services/tickets';
import { formatDateTime } from '../../utils/time';
import TransferActions, { useTransferShare } from './TransferActions';
import './index.scss';

const STATUS_TEXT: Record<string, string> = {
  valid: '可使用',
  refunding: '退票中',
  // Voided tickets are refunded ones (shared-types' TicketStatus): say so.
  voided: '已退款',
  transferring: '转赠中',
  transferred: '已转赠',
  exchanged: '已改签',
};

/** Why a ticket that cannot be used shows no code. */
const OFF_HINT: Record<string, string> = {
  checked_in: '已核验入场，欢迎观演',
  refunding: '退票处理中，暂不能入场',
  voided: '此票已退款，不能入场',
  transferring: '转赠中的门票不能入场，取消转赠后恢复可用',
  transferred: '此票已转赠给好友，原二维码已失效',
  exchanged: '此票已改签作废，请使用新票入场',
};

/** Usable tickets first; otherwise the server's order (by session time). */
export function walletOrder(tickets: Ticket[]): Ticket[] {
  const usable = (t: Ticket) => Number(ticketState(t) === 'valid');
  return [...tickets].sort((a, b) => usable(b) - usable(a));
}

/** Seat or zone of a ticket, as printed on it. */
export function ticketPlace(t: Ticket): string {
  if (t.seat) return seatLabel(t.seat);
  return t.zoneName ?? (t.seatId ? '对号入座' : '站席');
}

/** What the card shows: the live code, or why there is none. */
function ticketState(t: Ticket): string {
  if (t.status === 'valid' && t.checkedInAt) return 'checked_in';
  return t.status;
}

/** A usable ticket whose code another phone shows (the fan changed phones, or shares the account). */
function Elsewhere({ t, onMoved }: { t: Ticket; onMoved: () => void }) {
  const move = async () => {
    const ok = await Taro.showModal({
      title: '在本机出示',
      content: '此票的入场码将改由本机生成，原手机上的二维码立即失效。更换次数有限，确定吗？',
    });
    if (!ok.confirm) return;
    try {
      await moveHere(t.ticketId);
      onMoved();
    } catch (e) {
      void Taro.showToast({ title: errorView(e).message, icon: 'none' });
    }
  };
  return (
    <View className="ticket__elsewhere" data-testid="ticket-elsewhere">
      <Text>{t.binding ? '此票的入场码在另一台手机上' : '联网后生成本机的入场码'}</Text>
      {t.binding ? (
        <Button className="btn btn--ghost" data-testid="move-here" onClick={() => void move()}>
          在本机出示
        </Button>
      ) : null}
    </View>
  );
}

function TicketCard({
  t,
  now,
  deviceKey,
  onMoved,
}: {
  t: Ticket;
  now: number;
  deviceKey?: DeviceKey;
  onMoved: () => void;
}) {
  const state = ticketState(t);
  const usable = state === 'valid';
  const mine = Boolean(deviceKey && t.binding?.devicePublicKey === deviceKey.pub);
  return (
    <View className={`ticket ${usable ? '' : 'ticket--off'}`} data-testid="ticket" data-status={state}>
      <View className="ticket__top">
        <Text className="ticket__title">{t.showTitle}</Text>
        <Text className="ticket__meta">{formatDateTime(t.startsAt)}</Text>
        <Text className="ticket__meta">{t.venueName}</Text>
        <Text className="ticket__seat">{ticketPlace(t)}</Text>
        <AttendeeLine attendee={t.attendee} className="ticket__holder" testid="ticket-holder" />
      </View>
      <View className="ticket__tear" />
      <View className="ticket__bottom">
        {usable && mine ? (
          <RotatingQr ticket={t} now={now} deviceKey={deviceKey!} />
        ) : usable ? (
          <Elsewhere t={t} onMoved={onMoved} />
        ) : state === 'checked_in' ? (
          <View className="ticket__stamp ticket__stamp--in" data-testid="ticket-stamp">
            <Text>已入场</Text>
          </View>
        ) : (
          // No code to show at the gate for a ticket that will not open it.
          <View className="ticket__stamp" data-testid="ticket-stamp">
            <Text>{STATUS_TEXT[t.status] ?? t.status}</Text>
          </View>
        )}
        {usable ? <Text className="ticket__status">{STATUS_TEXT.valid}</Text> : null}
        {state === 'checked_in' ? (
          <Text className="ticket__status ticket__status--in" data-testid="checked-in-at">
            {formatDateTime(t.checkedInAt!)} 入场
          </Text>
        ) : null}
        <Text className="ticket__no">票号 {t.ticketId}</Text>
        <Text className="ticket__hint">
          {usable
            ? '入场时出示此动态二维码，截图无效；无法扫码时向检票员报人工核验码'
            : (OFF_HINT[state] ?? '此票不能入场')}
        </Text>
        {t.received ? (
          <Text className="ticket__hint" data-testid="ticket-received">
            好友转赠的门票，不支持退票
          </Text>
        ) : null}
        <TransferActions t={t} onChanged={onMoved} />
        {usable ? <EntryNotice realName={Boolean(t.attendee)} /> : null}
      </View>
    </View>
  );
}

export default function TicketsPage() {
  const wallet = useLoad(() => loadWallet(), []);
  const data = wallet.data?.tickets;
  // One clock for every code on the page; stopped when nothing shows a code.
  const now = useTicker(1000, Boolean(data?.some((t) => ticketState(t) === 'valid')));
  const key = storedDeviceKey();
  useTransferShare();
  useShownAgain(wallet.reload);
  usePullDownRefresh(() => {
    wallet.reload();
    stopPullDownRefresh();
  });
  return (
    <View className="page page--tabbed tickets">
      {wallet.data?.offline ? (
        <View className="tickets__offline" data-testid="wallet-offline">
          <Text>
            网络不可用：显示 {formatDateTime(new Date(wallet.data.fetchedAt).toISOString())}{' '}
            保存的票夹，动态二维码照常可用
          </Text>
        </View>
      ) : null}
      <ScrollView scrollY className="tickets__list">
        <FirstLoad loaded={wallet} />
        {data && data.length === 0 ? (
          <Empty text="票夹空空，买到的电子票会出现在这里">
            <Button className="btn btn--primary" onClick={() => switchTab('home')}>
              去买票
            </Button>
          </Empty>
        ) : null}
        {data
          ? walletOrder(data).map((t) => (
              <TicketCard key={t.ticketId} t={t} now={now} deviceKey={key} onMoved={wallet.reload} />
            ))
          : null}
      </ScrollView>
      <TabBar current="tickets" />
    </View>
  );
}
