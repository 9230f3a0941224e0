import { useRef, useState, type RefObject } from 'react';
import { seatAt, seatLabel, toWorld, type PlotSeat, type Point, type View } from '../seatmap/geometry';
import { clickIds, extendGesture, gestureIds, type Gesture, type SelectMode } from '../seatmap/pick';

interface Drag {
  x: number;
  y: number;
  view: View;
  moved: boolean;
  additive: boolean;
}

interface PointerInput {
  seats: PlotSeat[];
  mode: SelectMode;
  view: View | null;
  setView: (v: View) => void;
  onSelect?: (ids: string[], additive: boolean) => void;
}

/** Pointer handling: pan by dragging, hover labels, and the click / box / lasso selection tools. */
export function useSeatMapPointer(canvas: RefObject<HTMLCanvasElement | null>, input: PointerInput) {
  const { seats, mode, view, setView, onSelect } = input;
  const [gesture, setGesture] = useState<Gesture>();
  const [hover, setHover] = useState<{ x: number; y: number; text: string }>();
  const drag = useRef<Drag | null>(null);
  const drawing = mode === 'box' || mode === 'lasso';
  const local = (e: React.PointerEvent): Point => {
    const r = canvas.current!.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };

  const onDown = (e: React.PointerEvent) => {
    if (!view) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    const [x, y] = local(e);
    drag.current = { x, y, view, moved: false, additive: e.shiftKey };
    if (drawing) setGesture({ kind: mode, points: [[x, y]] });
  };
  const onMove = (e: React.PointerEvent) => {
    const [x, y] = local(e);
    const d = drag.current;
    if (!d) {
      const w = view ? toWorld(view, x, y) : undefined;
      const s = w ? seatAt(seats, w[0], w[1]) : undefined;
      setHover(s ? { x, y, text: seatLabel(s) } : undefined);
      return;
    }
    if (Math.abs(x - d.x) + Math.abs(y - d.y) > 4) d.moved = true;
    if (drawing) setGesture((g) => (g ? extendGesture(g, [x, y]) : g));
    else if (d.moved) setView({ ...d.view, tx: d.view.tx + x - d.x, ty: d.view.ty + y - d.y });
  };
  const onUp = (e: React.PointerEvent) => {
    const d = drag.current;
    drag.current = null;
    if (!d || !view) return;
    const p = local(e);
    if (drawing && gesture) {
      const ids = gestureIds(seats, view, gesture, p);
      setGesture(undefined);
      if (d.moved) onSelect?.(ids, d.additive);
      return;
    }
    if (d.moved || mode === 'view') return;
    const ids = clickIds(mode, seats, view, p);
    if (ids) onSelect?.(ids, d.additive);
  };
  const onLeave = () => setHover(undefined);
  return {
    gesture,
    hover,
    drawing,
    handlers: { onPointerDown: onDown, onPointerMove: onMove, onPointerUp: onUp, onPointerLeave: onLeave },
  };
}
