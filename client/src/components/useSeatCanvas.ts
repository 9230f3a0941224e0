import { useEffect, useLayoutEffect, type MutableRefObject } from 'react';
import type { SeatMapController } from '../seatmap/controller';
import type { SeatModel } from '../seatmap/model';

export interface SeatCanvasProps {
  model: SeatModel | null;
  selected: readonly number[];
  /** Bumped when live states changed the model in place. */
  statesVersion: number;
  onTapSeat: (seat: number) => void;
  /** Zoom requests from the +/- buttons: a counter per direction. */
  zoomSignal?: { n: number; factor: number };
  /** Bumped by 全览: back to the whole venue. */
  fitSignal?: number;
  /** The legend's tier filter (a tier index), or null for every tier. */
  tierFilter?: number | null;
}

/**
 * Hands the page's props to the controller, the same on both platforms (SeatCanvas.tsx and
 * SeatCanvas.weapp.tsx differ only in their surface and input events). Model and selection in
 * layout effects, so the first paint already shows them.
 */
export function useSeatCanvasProps(ctl: MutableRefObject<SeatMapController | null>, props: SeatCanvasProps) {
  useLayoutEffect(() => {
    if (props.model) ctl.current?.setModel(props.model);
  }, [ctl, props.model]);
  useLayoutEffect(() => {
    ctl.current?.setSelected(props.selected);
  }, [ctl, props.selected]);
  useEffect(() => {
    if (props.statesVersion > 0) ctl.current?.statesChanged();
  }, [ctl, props.statesVersion]);
  useEffect(() => {
    if (props.zoomSignal && props.zoomSignal.n > 0) ctl.current?.zoom(props.zoomSignal.factor);
  }, [ctl, props.zoomSignal]);
  useEffect(() => {
    if (props.fitSignal) ctl.current?.showAll();
  }, [ctl, props.fitSignal]);
  useLayoutEffect(() => {
    ctl.current?.setFilter(props.tierFilter ?? null);
  }, [ctl, props.tierFilter, props.model]);
}
