import { Canvas, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useLayoutEffect, useRef } from 'react';
import { SeatMapController, type Surface } from '../seatmap/controller';
import type { Gesture } from '../seatmap/gesture';
import { useSeatCanvasProps, type SeatCanvasProps } from './useSeatCanvas';
import { windowInfo } from '../utils/window-info';

const CANVAS_ID = 'seatmap-canvas';

interface MpTouch {
  identifier: number;
  x?: number;
  y?: number;
  clientX?: number;
  clientY?: number;
}

// Canvas touches carry canvas-relative x/y; other hosts give client coordinates.
const tx = (t: MpTouch) => t.x ?? t.clientX ?? 0;
const ty = (t: MpTouch) => t.y ?? t.clientY ?? 0;

function windowSize(): { width: number; height: number; dpr: number } {
  const info = windowInfo();
  // The canvas takes the page width and the space between the legend and the bottom bar.
  return { width: info.windowWidth, height: Math.round(info.windowHeight * 0.6), dpr: info.pixelRatio };
}

/**
 * WeChat: a Canvas 2D node found with a selector query. Touches pan and pinch; a seat is picked
 * by the canvas's tap event (page coordinates, made canvas-relative with the canvas's rect), so
 * WeChat's own tap detection decides what a tap is. Where no canvas node exists
 * (miniprogram-simulate), the controller still hit-tests taps against the window-sized view, so
 * the selection logic runs without drawing.
 */
export default function SeatCanvas(props: SeatCanvasProps) {
  const ctl = useRef<SeatMapController | null>(null);
  const origin = useRef({ left: 0, top: 0 });
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
        .fields({ node: true, size: true, rect: true })
        .exec(
          (res: Array<{ node?: any; width: number; height: number; left?: number; top?: number } | null>) => {
            const hit = res?.[0];
            if (!hit?.node || ctl.current !== c) return;
            origin.current = { left: hit.left ?? 0, top: hit.top ?? 0 };
            const canvas = hit.node;
            canvas.width = hit.width * w.dpr;
            canvas.height = hit.height * w.dpr;
            c.setSurface({
              ctx: canvas.getContext('2d'),
              width: hit.width,
              height: hit.height,
              dpr: w.dpr,
              raf: (cb) => canvas.requestAnimationFrame(cb),
            });
          },
        );
    });
    return () => {
      ctl.current = null;
    };
  }, []);

  useSeatCanvasProps(ctl, props);

  const each = (e: { changedTouches?: MpTouch[] }, fn: (t: MpTouch) => void) =>
    (e.changedTouches ?? []).forEach(fn);
  const panOrPinch = (g: Gesture | null | undefined) => g && g.kind !== 'tap' && ctl.current?.handle(g);
  const onTapEvent = (e: { detail?: { x?: number; y?: number } }) => {
    const { x = 0, y = 0 } = e.detail ?? {};
    ctl.current?.handle({ kind: 'tap', x: x - origin.current.left, y: y - origin.current.top });
  };
  return (
    <View className="seat-canvas" data-testid="seat-canvas">
      <Canvas
        type="2d"
        id={CANVAS_ID}
        className="seat-canvas__canvas"
        disableScroll
        onTouchStart={(e) => each(e as never, (t) => ctl.current?.gestures.down(t.identifier, tx(t), ty(t)))}
        onTouchMove={(e) =>
          each(e as never, (t) => panOrPinch(ctl.current?.gestures.move(t.identifier, tx(t), ty(t))))
        }
        onTouchEnd={(e) =>
          each(e as never, (t) => panOrPinch(ctl.current?.gestures.up(t.identifier, tx(t), ty(t))))
        }
        onTouchCancel={() => ctl.current?.gestures.cancel()}
        onClick={onTapEvent as never}
      />
    </View>
  );
}
