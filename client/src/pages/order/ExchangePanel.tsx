import { Button, Text, View } from '@tarojs/components';
import { useEffect, useState } from 'react';
import type { Exchange, Order, OrderItem, ShowDetail } from '@showtix/shared-types';
import { go } from '../../routes';
import { openSeatMap } from '../../seatmap/preload';
import type { SessionContext } from '../../services/context';
import { listExchanges } from '../../services/exchanges';
import { disabledWhen, flag } from '../../utils/flag';
import { formatYuan } from '../../utils/money';
import { formatDateTime } from '../../utils/time';
import { itemLabel } from './ItemsCard';
import { PickRow, usePicks } from './PickRow';

/** A ticket that can be exchanged: issued, in no refund, and not named by an exchange under way. */
export function exchangeableItems(order: Order, exchanges: Exchange[]): OrderItem[] {
  const busy = new Set(
    exchanges.filter((x) => x.status === 'pending' || x.status === 'done').flatMap((x) => x.oldTicketIds),
  );
  return order.items.filter((it) => it.ticketId && !it.refundStatus && !busy.has(it.ticketId));
}

/** 改签 offered: a ticketed order of a show that allows it, before the cutoff, with a ticket left. */
export function offersExchange(
  order: Order,
  show: ShowDetail | undefined,
  startsAt: string | undefined,
  nowMs: number,
) {
  const rules = show?.exchangeRules;
  if (!rules?.allowed || order.status !== 'ticketed' || !startsAt) return false;
  return nowMs < new Date(startsAt).getTime() - rules.cutoffMinutes * 60_000;
}

/**
 * 改签: the fan picks the tickets to move and the session (this one or another of the show),
 * then the new seats on that session's seat map, which confirms the exchange.
 */
export default function ExchangePanel(p: {
  order: Order;
  show: ShowDetail;
  items: OrderItem[];
  nowMs: number;
}) {
  const [chosen, toggle] = usePicks();
  const [session, setSession] = useState(p.order.sessionId);
  const cutoff = (p.show.exchangeRules?.cutoffMinutes ?? 0) * 60_000;
  const sessions = p.show.sessions.filter(
    (s) =>
      s.status !== 'cancelled' && s.status !== 'ended' && new Date(s.startsAt).getTime() - cutoff > p.nowMs,
  );
  const pickSeats = () =>
    openSeatMap({
      sessionId: session,
      showId: p.show.id,
      exchange: p.order.orderNo,
      tickets: chosen.join(','),
    });
  return (
    <View className="card refund-picker" data-testid="exchange-panel">
      <Text className="card__title">改签：选择门票</Text>
      {p.items.map((it) => {
        const on = chosen.includes(it.ticketId!);
        return (
          <PickRow
            key={it.ticketId}
            on={on}
            kind="checkbox"
            testid="exchange-pick"
            onPick={() => toggle(it.ticketId!)}
          >
            <View className="line__main">
              <Text className="line__label">{itemLabel(it)}</Text>
            </View>
            <Text className="line__price">{formatYuan(it.priceFen)}</Text>
          </PickRow>
        );
      })}
      <Text className="card__title">改签到场次</Text>
      {sessions.map((s) => (
        <PickRow
          key={s.id}
          on={session === s.id}
          kind="radio"
          testid="exchange-session"
          onPick={() => setSession(s.id)}
        >
          <Text className="line__label">
            {formatDateTime(s.startsAt)}
            {s.id === p.order.sessionId ? '（本场）' : ''}
          </Text>
        </PickRow>
      ))}
      <Text className="card__line">差价多退少补：新座位更贵时需支付差价，更便宜时差价原路退回。</Text>
      <Text className="card__line" data-testid="exchange-no-refund">
        改签后的新门票不支持退票。
      </Text>
      <Button
        className="btn btn--primary btn--wide"
        data-testid="exchange-pick-seats"
        {...disabledWhen(chosen.length === 0)}
        onClick={pickSeats}
      >
        {chosen.length === 0 ? '请选择门票' : `选择新座位（${chosen.length} 张）`}
      </Button>
    </View>
  );
}

const STATUS_TEXT: Record<Exchange['status'], string> = {
  pending: '待支付差价',
  done: '改签成功',
  failed: '改签未成功，差价已退回',
  cancelled: '已取消（未在时限内支付）',
};

/** The exchanges of the order: old tickets voided, new ones issued, the difference. */
export function ExchangeList({ exchanges, orderNo }: { exchanges: Exchange[]; orderNo: string }) {
  if (exchanges.length === 0) return null;
  return (
    <View className="card" data-testid="exchange-list">
      <Text className="card__title">改签记录</Text>
      {exchanges.map((x) => (
        <View key={x.exchangeId} className="line" data-testid="exchange-row" data-status={x.status}>
          <View className="line__main">
            <Text className="line__label">{STATUS_TEXT[x.status]}</Text>
            <Text className="line__sub">
              原票 {x.oldTicketIds.join('、')}
              {x.status === 'done' ? ' 已作废' : ''}
            </Text>
            {x.newTicketIds.length ? (
              <Text className="line__sub">新票 {x.newTicketIds.join('、')} 已出票</Text>
            ) : null}
            <Text className="line__sub">
              {x.diffFen > 0
                ? `补差价 ${formatYuan(x.diffFen)}`
                : x.diffFen < 0
                  ? `退差价 ${formatYuan(-x.diffFen)}`
                  : '无差价'}
            </Text>
          </View>
          {x.status === 'pending' && x.orderNo !== orderNo ? (
            <Button
              className="btn btn--ghost"
              data-testid="exchange-pay"
              onClick={() => go('order', { orderNo: x.orderNo })}
            >
              去支付
            </Button>
          ) : null}
        </View>
      ))}
    </View>
  );
}

export interface ExchangeOffer {
  /** The order's exchanges (read only when its show allows them). */
  exchanges: Exchange[];
  /** Its tickets that may be exchanged now. */
  items: OrderItem[];
  /** 改签 offered: allowed, before the cutoff, a ticket left. */
  offered: boolean;
}

/** The order's exchanges (改签), read again whenever the order changes, and what may be offered. */
export function useExchangeOffer(
  orderNo: string,
  order: Order | undefined,
  ctx: SessionContext | undefined,
): ExchangeOffer {
  const allowed = Boolean(ctx?.show.exchangeRules?.allowed);
  const [exchanges, setExchanges] = useState<Exchange[]>([]);
  useEffect(() => {
    if (!allowed || !order) return undefined;
    let live = true;
    listExchanges(orderNo).then(
      (r) => live && setExchanges(r.items),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [orderNo, order, allowed]);
  const items = order ? exchangeableItems(order, exchanges) : [];
  const offered =
    !!order && offersExchange(order, ctx?.show, ctx?.session.startsAt, Date.now()) && items.length > 0;
  return { exchanges, items, offered };
}

/** The 改签 panel (when opened) and the order's exchanges. */
export function ExchangeCards(p: {
  order: Order;
  show: ShowDetail | undefined;
  offer: ExchangeOffer;
  open: boolean;
}) {
  return (
    <>
      {p.open && p.offer.offered && p.show ? (
        <ExchangePanel order={p.order} show={p.show} items={p.offer.items} nowMs={Date.now()} />
      ) : null}
      <ExchangeList exchanges={p.offer.exchanges} orderNo={p.order.orderNo} />
    </>
  );
}

/** The bottom bar's 改签 button: opens and closes the panel. */
export function ExchangeToggle(p: {
  open: boolean;
  busy: boolean;
  onToggle: (f: (v: boolean) => boolean) => void;
}) {
  return (
    <Button
      className="btn btn--ghost"
      data-testid="exchange-open"
      disabled={flag(p.busy)}
      onClick={() => p.onToggle((v) => !v)}
    >
      {p.open ? '收起' : '改签'}
    </Button>
  );
}
