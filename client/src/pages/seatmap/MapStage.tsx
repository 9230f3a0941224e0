import { Button, View } from '@tarojs/components';
import { useState } from 'react';
import SeatCanvas from '../../components/SeatCanvas';
import type { SeatCanvasProps } from '../../components/useSeatCanvas';

/**
 * The canvas with its map controls: ＋ / － and 全览 (back to the whole venue; the minimap drawn
 * on the canvas shows where a zoomed view is). The zoom requests live here, so a map shown
 * afresh (the 选座位 tab again) starts at fit zoom without replaying an old ＋.
 */
export default function MapStage(p: Omit<SeatCanvasProps, 'zoomSignal' | 'fitSignal'> & { hidden: boolean }) {
  const { hidden, ...canvas } = p;
  const [zoom, setZoom] = useState({ n: 0, factor: 1 });
  const [fitSignal, setFitSignal] = useState(0);
  return (
    <View className="seatmap__stage" style={hidden ? { display: 'none' } : undefined}>
      <SeatCanvas {...canvas} zoomSignal={zoom} fitSignal={fitSignal} />
      <View className="zoom">
        <Button
          className="zoom__btn"
          aria-label="放大座位图"
          onClick={() => setZoom((z) => ({ n: z.n + 1, factor: 1.5 }))}
        >
          ＋
        </Button>
        <Button
          className="zoom__btn"
          aria-label="缩小座位图"
          onClick={() => setZoom((z) => ({ n: z.n + 1, factor: 1 / 1.5 }))}
        >
          －
        </Button>
        <Button
          className="zoom__btn zoom__btn--all"
          data-testid="zoom-all"
          onClick={() => setFitSignal((n) => n + 1)}
        >
          全览
        </Button>
      </View>
    </View>
  );
}
