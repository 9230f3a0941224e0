import { useLayoutEffect, useRef } from 'react';
import { SeatMapController, type DrawKind, type Surface } from '../seatmap/controller';
import { exposeSeatMap, markDrawn, markStage, markTap } from '../seatmap/markers';
import { useSeatCanvasProps, type SeatCanvasProps } from './useSeatCanvas';

function surfaceOf(canvas: HTMLCanvasElement, box: HTMLElement): Surface {
  const rect = box.getBoundingClientRect();
  const dpr = Math.min(window.devicePixelRatio || 1, 3);
  const width = Math.max(1, Math.round(rect.width));
  const height = Math.max(1, Math.round(rect.height));
  canvas.width = width * dpr;
  canvas.height = height * dpr;
  markStage(`surface ${width}x${height}`);
  return { ctx: canvas.getContext('2d'), width, height, dpr, raf: (cb) => window.requestAnimationFrame(cb) };
}

/** H5 (and tests): a plain DOM canvas driven by pointer events; SeatCanvas.weapp.tsx is WeChat's. */
export default function SeatCanvas(props: SeatCanvasProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const ctl = useRef<SeatMapController | null>(null);
  const onTap = useRef(props.onTapSeat);
  onTap.current = props.onTapSeat;

  useLayoutEffect(() => {
    markStage('canvas');
    const canvas = canvasRef.current!;
    const box = boxRef.current!;
    const c = new SeatMapController(
      surfaceOf(canvas, box),
      (k: DrawKind) => markDrawn(k),
      (s) => onTap.current(s),
    );
    ctl.current = c;
    const unexpose = exposeSeatMap(c, () => canvas.getBoundingClientRect());
    // The box gets its real size only once the page's CSS and layout settle (and again on
    // rotation), so the canvas follows the box rather than the window.
    let last = '';
    const onResize = () => {
      const r = box.getBoundingClientRect();
      // A hidden page (another page on top) has no box: keep the canvas and the fan's zoom.
      if (r.width < 1 || r.height < 1) return;
      const key = `${Math.round(r.width)}x${Math.round(r.height)}`;
      if (key !== last) {
        last = key;
        c.setSurface(surfaceOf(canvas, box));
      }
    };
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(onResize);
    observer?.observe(box);
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = canvas.getBoundingClientRect();
      c.zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX - r.left, e.clientY - r.top);
    };
    window.addEventListener('resize', onResize);
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      window.removeEventListener('resize', onResize);
      observer?.disconnect();
      canvas.removeEventListener('wheel', onWheel);
      unexpose();
      ctl.current = null;
    };
  }, []);

  useSeatCanvasProps(ctl, props);

  const pos = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top] as const;
  };
  return (
    <div ref={boxRef} className="seat-canvas" data-testid="seat-canvas">
      <canvas
        ref={canvasRef}
        className="seat-canvas__canvas"
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture?.(e.pointerId);
          ctl.current?.gestures.down(e.pointerId, ...pos(e));
        }}
        onPointerMove={(e) => ctl.current?.handle(ctl.current.gestures.move(e.pointerId, ...pos(e)))}
        onPointerUp={(e) => {
          markTap(e.timeStamp);
          ctl.current?.handle(ctl.current.gestures.up(e.pointerId, ...pos(e)));
        }}
        onPointerCancel={() => ctl.current?.gestures.cancel()}
      />
    </div>
  );
}
