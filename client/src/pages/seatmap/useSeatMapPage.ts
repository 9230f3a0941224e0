// The seat map page's state and effects: the map (preloaded on H5), the selection, the pick
// limit and the waiting-room turn. The decisions themselves live in logic.ts.
import type { SeatStates, SessionInfo } from '@showtix/shared-types';
import Taro, { useRouter } from '@tarojs/taro';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLoad } from '../../hooks/useLoad';
import { replace } from '../../routes';
import { getShow } from '../../services/catalog';
import { currentAdmission } from '../../services/queue';
import { limitReachedText, orderLimit, useQuota } from '../../services/quota';
import { markStage } from '../../seatmap/markers';
import type { SeatModel } from '../../seatmap/model';
import { takeLoadedSeatMap, takeSeatMapLoad, type SeatMapLoad } from '../../seatmap/preload';
import { tapSeat } from './logic';
import type { Seating } from './parts';
import { useExchangeMode, type ExchangeMode } from './useExchangeMode';
import { useSeatStates } from './useSeatStates';
import { useZoneChoice } from './ZonePicker';

/**
 * The map and the session load together; the show (title only) never delays the first draw.
 * A seat-map link (H5) or the way into the page (openSeatMap) has started this load before the
 * page's code arrived (preload.ts); when it is already here, the first render shows the map.
 */
function useSeatMapLoad(sessionId: string, showIdParam: string | undefined) {
  const [ready] = useState(() => takeLoadedSeatMap(sessionId));
  const loaded = useLoad<SeatMapLoad>(() => {
    markStage('load');
    return ready ? Promise.resolve(ready) : takeSeatMapLoad(sessionId);
  }, [sessionId]);
  const data = loaded.data || !ready ? loaded : { ...loaded, data: ready };
  const showId = showIdParam || data.data?.session.showId || '';
  const show = useLoad(() => (showId ? getShow(showId) : Promise.resolve(undefined)), [showId]);
  return { data, show };
}

/** The selection in state (to render) and in a ref (for the polls and taps between renders). */
function useSelection() {
  const [selected, setSelectedState] = useState<number[]>([]);
  const selectedRef = useRef<readonly number[]>(selected);
  const setSelected = useCallback((s: number[]) => {
    selectedRef.current = s;
    setSelectedState(s);
  }, []);
  return { selected, selectedRef, setSelected };
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

/** A queued session without a turn goes back to the waiting room. */
function useTurn(sessionId: string, queued: boolean, showId: string | undefined) {
  const [admission] = useState(() => currentAdmission(sessionId));
  const requeue = useCallback(() => replace('queue', { sessionId, showId }), [sessionId, showId]);
  useEffect(() => {
    if (queued && !admission) requeue();
  }, [queued, admission, requeue]);
  return { admission, requeue };
}

export function useSeatMapPage() {
  const { params } = useRouter();
  const sessionId = params.sessionId ?? '';
  const { data, show } = useSeatMapLoad(sessionId, params.showId);
  const model: SeatModel | null = data.data?.model ?? null;
  const selection = useSelection();
  const { selectedRef, setSelected } = selection;
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
  const pick = usePickLimit(sessionId, data.data?.session, exchange);
  const turn = useTurn(sessionId, pick.queued, params.showId || data.data?.session.showId);
  const { limit, quota, reached } = pick;
  const onTapSeat = useCallback(
    (seat: number) => {
      if (!model) return;
      const r = tapSeat(model, selectedRef.current, seat, { limit, filter, quota, reached });
      if ('selected' in r) return setSelected(r.selected);
      void Taro.showToast({ title: r.toast, icon: 'none' });
    },
    [model, limit, setSelected, quota, reached, filter, selectedRef],
  );
  const view = { seating, setSeating, asList, setAsList, filter, setFilter, zoneChoice, setZoneChoice };
  return {
    sessionId,
    data,
    show,
    model,
    zoneLive,
    statesVersion,
    exchange,
    onTapSeat,
    selection,
    view,
    pick,
    turn,
  };
}

export type SeatMapPageState = ReturnType<typeof useSeatMapPage>;
