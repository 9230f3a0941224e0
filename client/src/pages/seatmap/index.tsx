import type { SeatStates, SessionInfo } from '@showtix/shared-types';
import { Button, ScrollView, Text, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useCallback, useEffect, useRef, useState } from 'react';
import LoadState from '../../components/LoadState';
import { BarTotal } from '../../components/PriceTag';
import TurnTimer from '../../components/TurnTimer';
import { useLoad } from '../../hooks/useLoad';
import { go, replace } from '../../routes';
import { currentAdmission } from '../../services/queue';
import { getShow } from '../../services/catalog';
import { saveDraft, type CheckoutDraft } from '../../services/draft';
import { limitReachedText, orderLimit, useQuota } from '../../services/quota';
import { seatLabel, type SeatModel } from '../../seatmap/model';
import { markStage } from '../../seatmap/markers';
import { takeLoadedSeatMap, takeSeatMapLoad, type SeatMapLoad } from '../../seatmap/preload';
import { selectionTotalFen, toggleSeat } from '../../seatmap/selection';
import { formatYuan } from '../../utils/money';
import { formatDateTime } from '../../utils/time';
import SeatList from './SeatList';
import MapStage from './MapStage';
import { Legend, SeatingSwitch, SessionSwitch, type Seating } from './parts';
import { useZoneChoice, ZoneSection, zonePrice } from './ZonePicker';
import { useSeatStates } from './useSeatStates';
import './index.scss';
import { disabledWhen } from '../../utils/flag';
import { useExchangeMode, type ExchangeMode } from './useExchangeMode';
import { tapTarget } from '../../utils/a11y';

function SelectedBar(props: {
  model: SeatModel;
  selected: number[];
  limit: number;
  /** Why the fan cannot buy more here (already holds the limit), or "". */
  reached: string;
  onRemove: (i: number) => void;
  onConfirm: () => void;
}) {
  const { model, selected } = props;
  const total = selectionTotalFen(model, selected);
  return (
    <View className="select-bar">
      <ScrollView scrollX className="select-bar__chips">
        {props.reached ? (
          <Text className="select-bar__hint select-bar__hint--warn" data-testid="limit-reached">
            {props.reached}
          </Text>
        ) : selected.length === 0 ? (
          <Text className="select-bar__hint">点击座位选择，最多 {props.limit} 张；双指缩放查看</Text>
        ) : null}
        {selected.map((i) => (
          <View
            key={i}
            className="seat-chip"
            data-testid="seat-chip"
            onClick={() => props.onRemove(i)}
            {...tapTarget()}
          >
            <Text className="seat-chip__label">{seatLabel(model.seats[i]!)}</Text>
            <Text className="seat-chip__price">{formatYuan(model.tiers[model.tierOf[i]!]!.priceFen)} ×</Text>
          </View>
        ))}
      </ScrollView>
      <View className="bottom-bar bottom-bar--inline">
        <BarTotal label="合计" testid="running-total" fen={total} />
        <Button
          className="btn btn--primary btn--wide"
          data-testid="confirm-seats"
          {...disabledWhen(selected.length === 0 || Boolean(props.reached))}
          onClick={props.onConfirm}
        >
          {props.reached ? '已达限购' : selected.length ? `确认选座（${selected.length}）` : '请先选座'}
        </Button>
      </View>
    </View>
  );
}

/**
 * What the fan may pick here: the session's limit less what their live orders hold, or, for an
 * exchange, as many seats as tickets it moves (no quota, no waiting room: they hold tickets).
 */
function usePickLimit(
  sessionId: string,
  session: SessionInfo | undefined,
  exchange: ExchangeMode | undefined,
) {
  const quota = useQuota(sessionId);
  const limit = exchange ? exchange.tickets.length : orderLimit(session?.purchaseLimit ?? 1, quota);
  const reached = exchange ? '' : limitReachedText(quota);
  // Sessions with a waiting room: only with a turn (the order needs its token).
  const queued = !exchange && (session?.queueEnabled ?? false);
  return { quota, limit, reached, queued };
}

function SeatMapHead(p: { title: string | undefined; session: SessionInfo; exchanging: number | undefined }) {
  return (
    <View className="seatmap__head">
      <Text className="seatmap__title">{p.title ?? ' '}</Text>
      <Text className="seatmap__sub">
        {formatDateTime(p.session.startsAt)} ·{' '}
        {p.exchanging ? `改签 ${p.exchanging} 张，请选择新座位` : `限购 ${p.session.purchaseLimit} 张`}
      </Text>
    </View>
  );
}

export default function SeatMapPage() {
  const { params } = useRouter();
  const sessionId = params.sessionId ?? '';
  // The map and the session load together; the show (title only) never delays the first draw.
  // On H5 a seat-map link has started this load before the page's code arrived (preload.ts);
  // when it is already here, the first render shows the map.
  const [ready] = useState(() => takeLoadedSeatMap(sessionId));
  const loaded = useLoad<SeatMapLoad>(() => {
    markStage('load');
    return ready ? Promise.resolve(ready) : takeSeatMapLoad(sessionId);
  }, [sessionId]);
  const data = loaded.data || !ready ? loaded : { ...loaded, data: ready };
  const showId = params.showId || data.data?.session.showId || '';
  const show = useLoad(() => (showId ? getShow(showId) : Promise.resolve(undefined)), [showId]);
  const model = data.data?.model ?? null;
  const [selected, setSelectedState] = useState<number[]>([]);
  const selectedRef = useRef<readonly number[]>(selected);
  const setSelected = useCallback((s: number[]) => {
    selectedRef.current = s;
    setSelectedState(s);
  }, []);
  const [zoneLive, setZoneLive] = useState<SeatStates['zones']>();
  const [zoneChoice, setZoneChoice] = useZoneChoice();
  const [seating, setSeating] = useState<Seating>('seats');
  const [asList, setAsList] = useState(false);
  const [filter, setFilter] = useState<number | null>(null);
  const statesVersion = useSeatStates(
    sessionId,
    Boolean(data.data),
    model,
    selectedRef,
    setSelected,
    setZoneLive,
    data.data?.map.statesVersion,
  );
  // 改签 mode (from the order page): exactly as many seats as tickets moved, no queue, no quota.
  const exchange = useExchangeMode(params);
  const { quota, limit, reached, queued } = usePickLimit(sessionId, data.data?.session, exchange);
  const [admission] = useState(() => currentAdmission(sessionId));
  const requeue = useCallback(
    () => replace('queue', { sessionId, showId: params.showId || data.data?.session.showId }),
    [sessionId, params.showId, data.data],
  );
  useEffect(() => {
    if (queued && !admission) requeue();
  }, [queued, admission, requeue]);

  const onTapSeat = useCallback(
    (seat: number) => {
      if (!model) return;
      // The legend filter offers one tier: seats of the others are shown, not sold, until cleared.
      if (filter !== null && model.tierOf[seat] !== filter && !selectedRef.current.includes(seat)) {
        const title = `当前只看「${model.tiers[filter]!.name}」，点图例中的票档可切换`;
        return void Taro.showToast({ title, icon: 'none' });
      }
      const r = toggleSeat(model, selectedRef.current, seat, limit);
      if (r.ok) return setSelected(r.selected);
      // Over the limit because of tickets bought before: say so, not just the per-order limit.
      const held = r.reason === 'limit' && quota && quota.held > 0;
      const title = held ? reached || `您已购买本场 ${quota.held} 张，本场还可再选 ${limit} 张` : r.message;
      void Taro.showToast({ title, icon: 'none' });
    },
    [model, limit, setSelected, quota, reached, filter],
  );

  if (!data.data) {
    return (
      <View className="page">
        <LoadState loaded={data} text="正在加载座位图…" />
      </View>
    );
  }
  const { map, session } = data.data;
  const zones = map.zones.map((z) => ({
    ...z,
    available: zoneLive?.find((l) => l.id === z.id)?.available ?? z.available,
  }));
  const draftBase = (): Omit<CheckoutDraft, 'seats' | 'zone'> => ({
    sessionId,
    showId: session.showId,
    showTitle: show.data?.title ?? '',
    venueName: show.data?.venue.name ?? show.data?.venueName ?? '',
    startsAt: session.startsAt,
    realName: session.realName,
    purchaseLimit: session.purchaseLimit,
    queueEnabled: session.queueEnabled,
  });
  const confirmSeats = () => {
    if (!model) return;
    const seats = selectedRef.current.map((i) => {
      const tier = model.tiers[model.tierOf[i]!]!;
      return {
        id: model.ids[i]!,
        label: seatLabel(model.seats[i]!),
        tierName: tier.name,
        priceFen: tier.priceFen,
      };
    });
    if (exchange) return exchange.confirm({ seatIds: seats.map((x) => x.id) }, sessionId);
    saveDraft({ ...draftBase(), seats });
    go('confirm', { sessionId });
  };
  const confirmZone = (zone: (typeof zones)[number], quantity: number) => {
    if (exchange) return exchange.confirm({ zoneId: zone.id }, sessionId);
    saveDraft({
      ...draftBase(),
      zone: { id: zone.id, name: zone.name, priceFen: zonePrice(zone, map.tiers), quantity },
    });
    go('confirm', { sessionId });
  };
  const mixed = Boolean(model) && zones.length > 0;
  const zoneSection = (
    <ZoneSection
      zones={zones}
      tiers={map.tiers}
      limit={limit}
      choice={zoneChoice}
      onChoice={setZoneChoice}
      onConfirm={confirmZone}
      note={reached || (mixed ? '座位与站票需分开下单' : undefined)}
    />
  );

  return (
    <View className="page seatmap">
      <SeatMapHead title={show.data?.title} session={session} exchanging={exchange?.tickets.length} />
      {show.data?.sessions && !exchange ? (
        <SessionSwitch
          sessions={show.data.sessions}
          current={sessionId}
          onPick={(id) => replace('seatmap', { sessionId: id, showId: session.showId })}
        />
      ) : null}
      {queued ? <TurnTimer admission={admission} onRequeue={requeue} /> : null}
      {mixed ? (
        <SeatingSwitch
          mode={seating}
          fromFen={Math.min(...zones.map((z) => zonePrice(z, map.tiers)))}
          onMode={setSeating}
        />
      ) : null}
      {model && seating === 'seats' ? (
        <>
          <Legend
            model={model}
            zoneTiers={new Set(zones.map((z) => z.tierId))}
            filter={filter}
            onFilter={setFilter}
          />
          <Text
            className="view-toggle"
            data-testid="view-toggle"
            onClick={() => setAsList(!asList)}
            {...tapTarget()}
          >
            {asList ? '返回座位图' : '列表选座'}
          </Text>
          {asList ? <SeatList model={model} selected={selected} onSeat={onTapSeat} filter={filter} /> : null}
          <MapStage
            hidden={asList}
            model={model}
            selected={selected}
            statesVersion={statesVersion}
            onTapSeat={onTapSeat}
            tierFilter={filter}
          />
          <SelectedBar
            model={model}
            selected={selected}
            limit={limit}
            reached={reached}
            onRemove={(i) => setSelected(selected.filter((s) => s !== i))}
            onConfirm={confirmSeats}
          />
        </>
      ) : (
        zoneSection
      )}
    </View>
  );
}
