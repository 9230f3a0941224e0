import { useEffect, useMemo, useState } from 'react';
import type { SeatMap, SessionDashboard } from '@showtix/shared-types';
import { type ApiError } from '../../api/client';
import { sessionDashboard } from '../../api/sessions';
import { heldColor } from '../../seatmap/colors';
import { UNAVAILABLE } from '../../seatmap/draw';
import type { PlotSeat } from '../../seatmap/geometry';
import { colorAt } from '../shows/tierModel';
import { minuteOption, rateOption, statusOption, tierOption } from './charts';

const POLL_MS = 3000;
/** Sold seats on the live map; held seats get a colour far from every tier's (heldColor). */
export const SOLD_SEAT = '#4b4b5b';

export interface DashboardOptions {
  tiers: ReturnType<typeof tierOption>;
  minutes: ReturnType<typeof minuteOption>;
  rate: ReturnType<typeof rateOption>;
  status: ReturnType<typeof statusOption>;
}

/** Polls the dashboard while the page is open and visible. */
export function useLive(sessionId: string | undefined) {
  const [data, setData] = useState<SessionDashboard>();
  const [error, setError] = useState<ApiError>();
  useEffect(() => {
    if (!sessionId) return;
    let stop = false;
    let timer: ReturnType<typeof setTimeout>;
    setData(undefined);
    const tick = async () => {
      if (!document.hidden) {
        try {
          const d = await sessionDashboard(sessionId);
          if (!stop) {
            setData(d);
            setError(undefined);
          }
        } catch (e) {
          if (!stop) setError(e as ApiError);
        }
      }
      if (!stop) timer = setTimeout(tick, POLL_MS);
    };
    void tick();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [sessionId]);
  return { data, error };
}

/** The charts' options for the latest figures. */
export function useChartOptions(d: SessionDashboard | undefined): DashboardOptions | undefined {
  return useMemo(
    () =>
      d
        ? { tiers: tierOption(d), minutes: minuteOption(d), rate: rateOption(d), status: statusOption(d) }
        : undefined,
    [d],
  );
}

/** The live map's colours: sold, held (a colour far from every tier's), else the seat's tier. */
export function useSeatColors(map: SeatMap | undefined, d: SessionDashboard | undefined) {
  const heldSeat = useMemo(() => heldColor((map?.tiers ?? []).map((t, i) => t.color || colorAt(i))), [map]);
  const colorOf = useMemo(() => {
    const tierColor = new Map((map?.tiers ?? []).map((t, i) => [t.id, t.color || colorAt(i)]));
    const seatTier = new Map((map?.seats ?? []).map((s) => [s.id, s.tierId]));
    const sold = new Set(d?.seatStates.sold);
    const held = new Set(d?.seatStates.held);
    return (s: PlotSeat) =>
      sold.has(s.id)
        ? SOLD_SEAT
        : held.has(s.id)
          ? heldSeat
          : (tierColor.get(seatTier.get(s.id)!) ?? UNAVAILABLE);
  }, [map, d, heldSeat]);
  return { heldSeat, colorOf };
}
