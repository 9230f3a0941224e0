import { useCallback, useEffect, useLayoutEffect, useMemo, useState, type RefObject } from 'react';
import { drawSeatMap, type DrawInput } from '../seatmap/draw';
import { boundsOf, fitView, zoomAt, type PlotSeat, type View } from '../seatmap/geometry';

/** The box's pixel size, kept up to date with a ResizeObserver. */
function useBoxSize(box: RefObject<HTMLDivElement | null>, height: number) {
  const [size, setSize] = useState({ width: 0, height });
  useLayoutEffect(() => {
    const el = box.current!;
    const measure = () => setSize({ width: el.clientWidth, height: el.clientHeight });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [box]);
  return size;
}

/** Wheel zoom around the pointer (a native listener: React's wheel handler is passive). */
function useWheelZoom(
  canvas: RefObject<HTMLCanvasElement | null>,
  setView: (f: (v: View | null) => View | null) => void,
) {
  useEffect(() => {
    const c = canvas.current!;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = c.getBoundingClientRect();
      setView((v) =>
        v ? zoomAt(v, e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX - r.left, e.clientY - r.top) : v,
      );
    };
    c.addEventListener('wheel', onWheel, { passive: false });
    return () => c.removeEventListener('wheel', onWheel);
  }, [canvas, setView]);
}

/** Size and view (fit, zoom) of the canvas seat map. */
export function useSeatMapView(
  box: RefObject<HTMLDivElement | null>,
  canvas: RefObject<HTMLCanvasElement | null>,
  seats: PlotSeat[],
  height: number,
) {
  const size = useBoxSize(box, height);
  const [view, setView] = useState<View | null>(null);
  const bounds = useMemo(() => boundsOf(seats), [seats]);
  const fit = useCallback(() => setView(fitView(bounds, size.width, size.height)), [bounds, size]);
  // A new layout (or a resize) fits the whole map again.
  useEffect(() => {
    if (size.width > 0) fit();
  }, [fit, size.width]);
  useWheelZoom(canvas, setView);
  const zoom = (f: number) => setView((v) => (v ? zoomAt(v, f, size.width / 2, size.height / 2) : v));
  return { size, bounds, view, setView, fit, zoom };
}

export type DrawState = Omit<DrawInput, 'width' | 'height' | 'view'> & {
  view: View | null;
  size: { width: number; height: number };
};

/** Redraws the canvas whenever seats, colours, selection, view, size or the gesture change. */
export function useDrawSeatMap(canvas: RefObject<HTMLCanvasElement | null>, d: DrawState) {
  const { seats, colorOf, selected, bounds, view, size, gesture } = d;
  useEffect(() => {
    const c = canvas.current;
    if (!c || !view || size.width === 0) return;
    const dpr = Math.min(window.devicePixelRatio || 1, 3);
    c.width = size.width * dpr;
    c.height = size.height * dpr;
    const ctx = c.getContext('2d');
    if (ctx)
      drawSeatMap(ctx, dpr, {
        seats,
        colorOf,
        selected,
        bounds,
        view,
        width: size.width,
        height: size.height,
        gesture,
      });
  }, [canvas, seats, colorOf, selected, bounds, view, size, gesture]);
}
