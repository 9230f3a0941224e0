import { useRef } from 'react';
import { Button, Tooltip } from 'antd';
import { CompressOutlined, MinusOutlined, PlusOutlined } from '@ant-design/icons';
import type { PlotSeat } from '../seatmap/geometry';
import type { SelectMode } from '../seatmap/pick';
import { useSeatMapPointer } from './useSeatMapPointer';
import { useDrawSeatMap, useSeatMapView } from './useSeatMapView';

export type { SelectMode } from '../seatmap/pick';

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

const HOVER_STYLE = {
  position: 'absolute',
  background: 'rgba(17,24,39,.85)',
  color: '#fff',
  fontSize: 12,
  padding: '2px 6px',
  borderRadius: 4,
  pointerEvents: 'none',
} as const;

function Toolbar({ zoom, fit }: { zoom: (f: number) => void; fit: () => void }) {
  return (
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
  );
}

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
  const { size, bounds, view, setView, fit, zoom } = useSeatMapView(box, canvas, seats, height);
  const { gesture, hover, drawing, handlers } = useSeatMapPointer(canvas, {
    seats,
    mode,
    view,
    setView,
    onSelect,
  });
  useDrawSeatMap(canvas, { seats, colorOf, selected, bounds, view, size, gesture });
  return (
    <div ref={box} className="seatmap-box" style={{ height }} data-testid={testId ?? 'seatmap'}>
      <canvas
        ref={canvas}
        style={{ cursor: drawing ? 'crosshair' : mode === 'view' ? 'grab' : 'pointer' }}
        {...handlers}
      />
      <Toolbar zoom={zoom} fit={fit} />
      {hover && <div style={{ ...HOVER_STYLE, left: hover.x + 12, top: hover.y + 12 }}>{hover.text}</div>}
    </div>
  );
}
