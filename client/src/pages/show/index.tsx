import { WaitlistJoin } from '../../components/Waitlist';
import type { SessionInfo, ShowDetail } from '@showtix/shared-types';
import { Button, ScrollView, Text, View } from '@tarojs/components';
import { useRouter } from '@tarojs/taro';
import { useState } from 'react';
import LoadState from '../../components/LoadState';
import Poster from '../../components/Poster';
import PriceTag from '../../components/PriceTag';
import SessionChangeNote from '../../components/SessionChangeNote';
import { SessionBadge } from '../../components/StatusBadge';
import { useCountdown } from '../../hooks/useCountdown';
import { useLoad } from '../../hooks/useLoad';
import { go } from '../../routes';
import { getShow } from '../../services/catalog';
import { openSeatMap } from '../../seatmap/preload';
import { limitReachedText, useQuota } from '../../services/quota';
import { formatPriceRange } from '../../utils/money';
import { formatCountdown, formatDateRange, formatDateTime } from '../../utils/time';
import { ServiceBarItem } from '../../components/ServiceEntry';
import { HeroActions } from './actions';
import { PurchaseNotes, RefundRules } from './notices';
import { VenueCard } from './venue';
import './index.scss';
import { flag } from '../../utils/flag';
import { tapTarget } from '../../utils/a11y';

/** The session shown first: the first one on sale, else the first one still to come. */
export function defaultSession(sessions: SessionInfo[]): SessionInfo | undefined {
  return (
    sessions.find((s) => s.status === 'on_sale') ??
    sessions.find((s) => s.status === 'presale') ??
    sessions[0]
  );
}

function SessionCard({ s, active, onPick }: { s: SessionInfo; active: boolean; onPick: () => void }) {
  const prices = s.tiers.map((t) => t.priceFen);
  return (
    <View
      className={`session ${active ? 'session--on' : ''}`}
      data-testid="session-card"
      onClick={onPick}
      {...tapTarget({ pressed: active })}
    >
      <View className="session__head">
        <Text className="session__time">{formatDateTime(s.startsAt)}</Text>
        <SessionBadge status={s.status} />
      </View>
      <View className="session__tiers">
        {s.tiers.map((t) => (
          <View key={t.id} className="tier-chip">
            <View className="tier-chip__dot" style={{ background: t.color || '#999' }} />
            <Text className="tier-chip__name">{t.name}</Text>
            <PriceTag fen={t.priceFen} size="sm" />
          </View>
        ))}
      </View>
      <View className="session__notes">
        <Text className="note">{s.seating === 'reserved' ? '对号入座' : '站席/自由席'}</Text>
        <Text className="note">每单限购 {s.purchaseLimit} 张</Text>
        {s.realName ? <Text className="note note--warn">实名制</Text> : null}
        {s.queueEnabled ? <Text className="note note--warn">排队购票</Text> : null}
        {prices.length > 1 ? (
          <Text className="note">{formatPriceRange(Math.min(...prices), Math.max(...prices))}</Text>
        ) : null}
      </View>
      <SessionChangeNote s={s} nowMs={Date.now()} />
    </View>
  );
}

function BuyBar({ show, s, reached }: { show: ShowDetail; s: SessionInfo | undefined; reached: string }) {
  const left = useCountdown(s?.status === 'presale' ? s.saleStartsAt : null);
  let label = '暂无场次';
  // The presale's time to the sale, on a line of its own: one line cut the text off.
  let sub = '';
  let enabled = false;
  if (s?.status === 'on_sale') {
    label = s.seating === 'reserved' ? '选座购买' : '立即购买';
    enabled = true;
  } else if (s?.status === 'presale') {
    label = '即将开售';
    sub = left > 0 ? `${formatCountdown(left)} 后开售` : '';
    // A waiting room takes fans before the sale: they are drawn into a random order when it opens.
    if (s.queueEnabled) {
      label = '提前排队';
      enabled = true;
    }
  } else if (s?.status === 'sold_out') {
    label = '已售罄';
  } else if (s?.status === 'ended') {
    label = '已结束';
  } else if (s?.status === 'cancelled') {
    label = '已取消';
  }
  // A fan who already holds the limit is told here, before the queue and the seat map.
  if (enabled && reached) {
    label = '已达限购';
    sub = '';
    enabled = false;
  }
  const min = s ? Math.min(...s.tiers.map((t) => t.priceFen)) : show.priceMinFen;
  return (
    <View className="bottom-bar">
      <ServiceBarItem />
      <View className="bottom-bar__info">
        {min !== null && Number.isFinite(min) ? <PriceTag fen={min} from size="lg" /> : null}
      </View>
      <Button
        className={`btn btn--primary btn--wide${sub ? ' btn--stack' : ''}`}
        data-testid="buy-button"
        disabled={flag(!enabled)}
        onClick={() => {
          if (!enabled || !s) return;
          const to = { sessionId: s.id, showId: show.id };
          if (s.queueEnabled) go('queue', to);
          else openSeatMap(to);
        }}
      >
        {sub ? (
          <>
            <Text className="btn__main">{label}</Text>
            <Text className="btn__sub" data-testid="sale-countdown">
              {sub}
            </Text>
          </>
        ) : (
          label
        )}
      </Button>
    </View>
  );
}

export default function ShowPage() {
  const { params } = useRouter();
  const id = params.id ?? '';
  const show = useLoad(() => getShow(id), [id]);
  // The fan's pick, else the default: nothing to sync when the show arrives.
  const [picked, setPicked] = useState<string>();
  if (!show.data) {
    return (
      <View className="page">
        <LoadState loaded={show} />
      </View>
    );
  }
  const d = show.data;
  const session = d.sessions.find((s) => s.id === picked) ?? defaultSession(d.sessions);
  return <ShowBody d={d} session={session} onPick={setPicked} />;
}

function ShowBody({
  d,
  session,
  onPick,
}: {
  d: ShowDetail;
  session: SessionInfo | undefined;
  onPick: (id: string) => void;
}) {
  const reached = limitReachedText(useQuota(session?.id));
  return (
    <View className="page page--barred show">
      <ScrollView scrollY className="show__scroll">
        <View className="show__hero">
          <View className="show__hero-bg" />
          <Poster id={d.id} title={d.title} posterUrl={d.posterUrl} size="hero" />
          <View className="show__hero-info">
            <Text className="show__title">{d.title}</Text>
            <Text className="show__meta">{formatDateRange(d.firstStartsAt, d.lastStartsAt)}</Text>
            <Text className="show__meta">
              {d.venue.city} · {d.venue.name}
            </Text>
            {d.priceMinFen !== null ? (
              <Text className="show__range">{formatPriceRange(d.priceMinFen, d.priceMaxFen)}</Text>
            ) : null}
            <HeroActions d={d} />
          </View>
        </View>
        <View className="card">
          <Text className="card__title">选择场次</Text>
          {d.sessions.map((s) => (
            <SessionCard key={s.id} s={s} active={s.id === session?.id} onPick={() => onPick(s.id)} />
          ))}
          {reached ? (
            <Text className="note note--warn show__limit" data-testid="limit-reached">
              {reached}
            </Text>
          ) : null}
        </View>
        {/* 候补: a sold-out session, or a selling one whose tier the fan wants has sold out (the
            server answers WAITLIST_NOT_SOLD_OUT while the tier still has tickets on sale). A
            real-name session's 候补 names its attendees. */}
        {session?.status === 'sold_out' || session?.status === 'on_sale' ? (
          <WaitlistJoin key={session.id} s={session} />
        ) : null}
        <VenueCard venue={d.venue} />
        {session ? <PurchaseNotes session={session} rules={d.refundRules} /> : null}
        <RefundRules rules={d.refundRules} />
        {d.description ? (
          <View className="card">
            <Text className="card__title">演出介绍</Text>
            <Text className="card__text">{d.description}</Text>
          </View>
        ) : null}
      </ScrollView>
      <BuyBar show={d} s={session} reached={reached} />
    </View>
  );
}
