import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Button, Tooltip } from 'antd';
import { CompressOutlined, MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { drawSeatMap } from '../seatmap/draw';
import {
  boundsOf,
  fitView,
  sameRow,
  sameSection,
  seatAt,
  seatLabel,
  seatsInPolygon,
  seatsInRect,
  toWorld,
  zoomAt,
  type PlotSeat,
  type Point,
  type View,
} from '../seatmap/geometry';

export type SelectMode = 'view' | 'seat' | 'row' | 'section' | 'box' | 'lasso';

export interface SeatMapCanvasProps {
  seats: PlotSeat[];
  colorOf: (s: PlotSeat) => string;
  selected?: ReadonlySet<string>;
  mode?: SelectMode;
  /** Seats picked by a click, box or lasso; `additive` when Shift was held. */
  onSelect?: (ids: string[], additive: boolean) => void;
  height?: number;
  testId?: string;
}

const EMPTY = new Set<string>();

/** A canvas seat map with zoom (wheel, buttons), pan (drag) and the selection tools of the tier painter. */
export function SeatMapCanvas({
  seats,
  colorOf,
  selected = EMPTY,
  mode = 'view',
  onSelect,
  height = 480,
  testId,
}: SeatMapCanvasProps) {
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [size, setSize] = useState({ width: 0, height });
  const [view, setView] = useState<View | null>(null);
  const [gesture, setGesture] = useState<{ kind: 'box' | 'lasso'; points: Point[] }>();
  const [hover, setHover] = useState<{ x: number; y: number; text: string }>();
  const drag = useRef<{ x: number; y: number; view: View; moved: boolean; additive: boolean } | null>(null);
  const bounds = useMemo(() => boundsOf(seats), [seats]);

  useLayoutEffect(() => {
    const el = box.current!;
    const measure = () => setSize({ width: el.clientWidth, height: el.clientHeight });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const fit = useCallback(() => setView(fitView(bounds, size.width, size.height)), [bounds, size]);
  // A new layout (or a resize) fits the whole map again.
  useEffect(() => {
    if (size.width > 0) fit();
  }, [fit, size.width]);

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
  }, [seats, colorOf, selected, bounds, view, size, gesture]);

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
  }, []);

  const local = (e: React.PointerEvent): Point => {
    const r = canvas.current!.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };
  const drawing = mode === 'box' || mode === 'lasso';

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
    if (drawing)
      setGesture((g) =>
        g ? { ...g, points: g.kind === 'box' ? [g.points[0]!, [x, y]] : [...g.points, [x, y]] } : g,
      );
    else if (d.moved) setView({ ...d.view, tx: d.view.tx + x - d.x, ty: d.view.ty + y - d.y });
  };
  const onUp = (e: React.PointerEvent) => {
    const d = drag.current;
    drag.current = null;
    if (!d || !view) return;
    const [x, y] = local(e);
    if (drawing && gesture) {
      const pts = gesture.points.map(([px, py]) => toWorld(view, px, py));
      const ids =
        mode === 'box' ? seatsInRect(seats, pts[0]!, toWorld(view, x, y)) : seatsInPolygon(seats, pts);
      setGesture(undefined);
      if (d.moved) onSelect?.(ids, d.additive);
      return;
    }
    if (d.moved || mode === 'view') return;
    const [wx, wy] = toWorld(view, x, y);
    const s = seatAt(seats, wx, wy);
    if (!s) return;
    const ids = mode === 'row' ? sameRow(seats, s) : mode === 'section' ? sameSection(seats, s) : [s.id];
    onSelect?.(ids, d.additive);
  };

  const zoom = (f: number) => setView((v) => (v ? zoomAt(v, f, size.width / 2, size.height / 2) : v));
  return (
    <div ref={box} className="seatmap-box" style={{ height }} data-testid={testId ?? 'seatmap'}>
      <canvas
        ref={canvas}
        style={{ cursor: drawing ? 'crosshair' : mode === 'view' ? 'grab' : 'pointer' }}
        onPointerDown={onDown}
        onPointerMove={onMove}
        onPointerUp={onUp}
        onPointerLeave={() => setHover(undefined)}
      />
      <div className="seatmap-toolbar">
        <Tooltip title="放大">
          <Button size="small" icon={<PlusOutlined />} onClick={() => zoom(1.3)} aria-label="放大" />
        </Tooltip>
        <Tooltip title="缩小">
          <Button size="small" icon={<MinusOutlined />} onClick={() => zoom(1 / 1.3)} aria-label="缩小" />
        </Tooltip>
        <Tooltip title="适应窗口">
          <Button size="small" icon={<CompressOutlined />} onClick={fit} aria-label="适应窗口" />
        </Tooltip>
      </div>
      {hover && (
        <div
          style={{
            position: 'absolute',
            left: hover.x + 12,
            top: hover.y + 12,
            background: 'rgba(17,24,39,.85)',
            color: '#fff',
            fontSize: 12,
            padding: '2px 6px',
            borderRadius: 4,
            pointerEvents: 'none',
          }}
        >
          {hover.text}
        </div>
      )}
    </div>
  );
}
