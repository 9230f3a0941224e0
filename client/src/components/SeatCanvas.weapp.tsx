import { Canvas, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { SeatMapController, type Surface } from '../seatmap/controller';
import type { SeatCanvasProps } from './SeatCanvas';

const CANVAS_ID = 'seatmap-canvas';

interface MpTouch {
  identifier: number;
  x: number;
  y: number;
}

function windowSize(): { width: number; height: number; dpr: number } {
  const info = Taro.getSystemInfoSync();
  // The canvas takes the page width and the space between the legend and the bottom bar.
  return { width: info.windowWidth, height: Math.round(info.windowHeight * 0.6), dpr: info.pixelRatio || 2 };
}

/**
 * WeChat: a Canvas 2D node found with a selector query. Canvas touches carry canvas-relative
 * x/y. Where no canvas node exists (miniprogram-simulate), the controller still hit-tests taps
 * against the window-sized view, so selection logic runs without drawing.
 */
export default function SeatCanvas(props: SeatCanvasProps) {
  const ctl = useRef<SeatMapController | null>(null);
  const onTap = useRef(props.onTapSeat);
  onTap.current = props.onTapSeat;

  useLayoutEffect(() => {
    const w = windowSize();
    const fallback: Surface = { ctx: null, ...w, raf: (cb) => setTimeout(cb, 16) };
    const c = new SeatMapController(fallback, undefined, (s) => onTap.current(s));
    ctl.current = c;
    Taro.nextTick(() => {
      Taro.createSelectorQuery()
        .select(`#${CANVAS_ID}`)
        .fields({ node: true, size: true })
        .exec((res: Array<{ node?: any; width: number; height: number } | null>) => {
          const hit = res?.[0];
          if (!hit?.node || ctl.current !== c) return;
          const canvas = hit.node;
          canvas.width = hit.width * w.dpr;
          canvas.height = hit.height * w.dpr;
          c.setSurface({ ctx: canvas.getContext('2d'), width: hit.width, height: hit.height, dpr: w.dpr, raf: (cb) => canvas.requestAnimationFrame(cb) });
        });
    });
    return () => {
      ctl.current = null;
    };
  }, []);

  useLayoutEffect(() => {
    if (props.model) ctl.current?.setModel(props.model);
  }, [props.model]);
  useLayoutEffect(() => {
    ctl.current?.setSelected(props.selected);
  }, [props.selected]);
  useEffect(() => {
    if (props.statesVersion > 0) ctl.current?.statesChanged();
  }, [props.statesVersion]);
  useEffect(() => {
    if (props.zoomSignal && props.zoomSignal.n > 0) ctl.current?.zoom(props.zoomSignal.factor);
  }, [props.zoomSignal]);

  const each = (e: { changedTouches?: MpTouch[] }, fn: (t: MpTouch) => void) => (e.changedTouches ?? []).forEach(fn);
  return (
    <View className='seat-canvas' data-testid='seat-canvas'>
      <Canvas
        type='2d'
        id={CANVAS_ID}
        className='seat-canvas__canvas'
        disableScroll
        onTouchStart={(e) => each(e as never, (t) => ctl.current?.gestures.down(t.identifier, t.x, t.y))}
        onTouchMove={(e) => each(e as never, (t) => ctl.current?.handle(ctl.current.gestures.move(t.identifier, t.x, t.y)))}
        onTouchEnd={(e) => each(e as never, (t) => ctl.current?.handle(ctl.current.gestures.up(t.identifier, t.x, t.y)))}
        onTouchCancel={() => ctl.current?.gestures.cancel()}
      />
    </View>
  );
}
