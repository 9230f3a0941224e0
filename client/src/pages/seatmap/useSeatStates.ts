import Taro, { useDidHide } from '@tarojs/taro';
import { useEffect, useRef, useState } from 'react';
import type { SeatStates } from '@showtix/shared-types';
import { useShownAgain } from '../../hooks/useShownAgain';
import { getSeatStates } from '../../services/catalog';
import { seatLabel, type SeatModel } from '../../seatmap/model';
import { applyDelta, applyStates } from '../../seatmap/states';

export const REFRESH_MS = 4000;

/**
 * Keeps the open map's states live: polls the compact seat-states endpoint while the page is
 * visible (and at once when it shows again, e.g. back from a SEAT_TAKEN), rewrites the model's
 * state array in place and drops selected seats that someone else took. Each poll sends the
 * version it has (`since`), so an idle poll is a few hundred bytes and a busy one names only
 * the seats that changed; the server answers the full list when it no longer knows the version.
 */
export function useSeatStates(
  sessionId: string,
  enabled: boolean,
  model: SeatModel | null,
  selectedRef: { current: readonly number[] },
  setSelected: (s: number[]) => void,
  onZones?: (zones: SeatStates['zones']) => void,
  initialVersion?: string,
): number {
  const [version, setVersion] = useState(0);
  const [visible, setVisible] = useState(true);
  const [kick, setKick] = useState(0);
  const zonesCb = useRef(onZones);
  zonesCb.current = onZones;
  // Not at the first show: the map has just been loaded with its states.
  useShownAgain(() => {
    setVisible(true);
    setKick((k) => k + 1);
  });
  useDidHide(() => setVisible(false));

  // The version the model's states are at (from the map's load, then from each poll).
  const statesAt = useRef(initialVersion);
  useEffect(() => {
    statesAt.current = initialVersion;
  }, [model, initialVersion]);

  useEffect(() => {
    if (!enabled || !visible) return undefined;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The server says when to poll next (an operator may slow seat states down in a peak).
    let everyMs = REFRESH_MS;
    const refresh = async () => {
      try {
        const s = await getSeatStates(sessionId, model ? statesAt.current : undefined);
        if (stopped) return;
        const after = (s as { pollAfterMs?: number }).pollAfterMs;
        if (after && after >= REFRESH_MS) everyMs = after;
        zonesCb.current?.(s.zones);
        if (!model) return;
        const { changed, lost } =
          'available' in s
            ? applyDelta(model, s, selectedRef.current)
            : applyStates(model, s, selectedRef.current);
        statesAt.current = s.version;
        if (lost.length) {
          setSelected(selectedRef.current.filter((i) => !lost.includes(i)));
          void Taro.showToast({
            title: `${seatLabel(model.seats[lost[0]!]!)} 已被抢，请重新选择`,
            icon: 'none',
            duration: 2500,
          });
        }
        if (changed) setVersion((v) => v + 1);
      } catch {
        // A missed refresh is harmless: the next one comes in a few seconds.
      }
    };
    const next = () => {
      timer = setTimeout(() => void refresh().finally(() => !stopped && next()), everyMs);
    };
    if (kick > 0) void refresh();
    next();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [enabled, model, visible, kick, sessionId, selectedRef, setSelected]);
  return version;
}
