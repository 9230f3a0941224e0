import { AVAILABLE, SELECTED_COLOR, UNAVAILABLE_COLOR, type SeatModel } from './model';
import { STAGE_SPACE, type View } from './viewport';

/** The subset of CanvasRenderingContext2D used here; WeChat's Canvas 2D context has it too. */
export interface Ctx2D {
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  clearRect(x: number, y: number, w: number, h: number): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  strokeRect(x: number, y: number, w: number, h: number): void;
  beginPath(): void;
  rect(x: number, y: number, w: number, h: number): void;
  fill(): void;
  fillText(text: string, x: number, y: number): void;
  strokeText(text: string, x: number, y: number): void;
  fillStyle: string | CanvasGradient | CanvasPattern;
  strokeStyle: string | CanvasGradient | CanvasPattern;
  lineWidth: number;
  font: string;
  textAlign: CanvasTextAlign;
  textBaseline: CanvasTextBaseline;
}

export interface Frame {
  ctx: Ctx2D;
  width: number;
  height: number;
  dpr: number;
}

const BACKGROUND = '#fbfbfd';

function drawStage(f: Frame, m: SeatModel, v: View): void {
  const left = m.bounds.minX * v.scale + v.tx;
  const right = m.bounds.maxX * v.scale + v.tx;
  const top = m.bounds.minY * v.scale + v.ty - STAGE_SPACE + 6;
  const w = Math.min(Math.max((right - left) * 0.5, 120), right - left + 40);
  const x = (left + right) / 2 - w / 2;
  f.ctx.fillStyle = '#2b2b3a';
  f.ctx.fillRect(x, top, w, 22);
  f.ctx.fillStyle = '#ffffff';
  f.ctx.font = '12px sans-serif';
  f.ctx.textAlign = 'center';
  f.ctx.textBaseline = 'middle';
  f.ctx.fillText('舞 台', x + w / 2, top + 11);
}

function drawSectionLabels(f: Frame, m: SeatModel, v: View, size: number): void {
  if (size < 5) return; // too small to read; the legend carries the meaning
  f.ctx.font = '11px sans-serif';
  f.ctx.textAlign = 'center';
  f.ctx.textBaseline = 'bottom';
  f.ctx.lineWidth = 3;
  f.ctx.strokeStyle = 'rgba(251,251,253,0.9)'; // a halo keeps labels readable over seats
  f.ctx.fillStyle = '#6b6b7b';
  for (const s of m.sections) {
    const x = s.x * v.scale + v.tx;
    const y = s.y * v.scale + v.ty - size * 0.7;
    f.ctx.strokeText(s.name, x, y);
    f.ctx.fillText(s.name, x, y);
  }
}

/**
 * One path per colour: 10,000 seats are a handful of fill() calls, which is what keeps a full
 * redraw in single-digit milliseconds. Seats off screen are skipped.
 */
function fillSeats(
  f: Frame,
  m: SeatModel,
  v: View,
  list: ArrayLike<number>,
  color: string,
  pick: (i: number) => boolean,
): void {
  const size = Math.max(m.seatSize * v.scale, 1.5);
  const half = size / 2;
  const { ctx, width, height } = f;
  ctx.fillStyle = color;
  ctx.beginPath();
  for (let k = 0; k < list.length; k++) {
    const i = list[k]!;
    if (!pick(i)) continue;
    const x = m.xs[i]! * v.scale + v.tx - half;
    const y = m.ys[i]! * v.scale + v.ty - half;
    if (x > width || y > height || x + size < 0 || y + size < 0) continue;
    ctx.rect(x, y, size, size);
  }
  ctx.fill();
}

export function drawSeatMap(f: Frame, m: SeatModel, v: View, selected: readonly number[]): void {
  const { ctx, dpr } = f;
  const chosen = new Uint8Array(m.count);
  for (const i of selected) chosen[i] = 1;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = BACKGROUND;
  ctx.fillRect(0, 0, f.width, f.height);
  drawStage(f, m, v);
  const size = m.seatSize * v.scale;
  drawSectionLabels(f, m, v, size);
  fillSeats(f, m, v, m.all, UNAVAILABLE_COLOR, (i) => m.state[i] !== AVAILABLE && !chosen[i]);
  m.byTier.forEach((list, t) =>
    fillSeats(f, m, v, list, m.colors[t]!, (i) => m.state[i] === AVAILABLE && !chosen[i]),
  );
  if (selected.length) {
    fillSeats(f, m, v, selected, SELECTED_COLOR, () => true);
    if (size >= 6) {
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = Math.max(1, size / 8);
      for (const i of selected) {
        const s = Math.max(size, 1.5);
        ctx.strokeRect(
          m.xs[i]! * v.scale + v.tx - s / 2 + ctx.lineWidth,
          m.ys[i]! * v.scale + v.ty - s / 2 + ctx.lineWidth,
          s - 2 * ctx.lineWidth,
          s - 2 * ctx.lineWidth,
        );
      }
    }
  }
}
