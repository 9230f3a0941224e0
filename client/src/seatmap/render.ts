import type { Ctx2D } from './ctx';
import { AVAILABLE, SELECTED_COLOR, UNAVAILABLE_COLOR, type SeatModel } from './model';
import { drawMinimap, minimapBox, showsMinimap } from './minimap';
import { STAGE_SPACE, type View } from './viewport';

/** The canvas context subset drawn with (ctx.ts), re-exported for the canvas components. */
export type { Ctx2D };

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

/** Seats at least this big (CSS px) get row numbers and section names that follow the view. */
export const LABEL_SEAT_PX = 9;

/** A label on a small white plate, readable over seats. */
function plate(f: Frame, text: string, x: number, y: number, px: number): void {
  const w = text.length * px * 0.62 + 8;
  f.ctx.fillStyle = 'rgba(255,255,255,0.92)';
  f.ctx.fillRect(x - w / 2, y - px * 0.7 - 2, w, px * 1.4 + 4);
  f.ctx.fillStyle = '#3a3a48';
  f.ctx.fillText(text, x, y);
}

/** Section names above their sections: the overview. Too small to read: the legend carries it. */
function drawSectionLabels(f: Frame, m: SeatModel, v: View, size: number): void {
  if (size < 5) return;
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
 * Zoomed in, the name of every section on screen stays in view: at the top of the section's
 * visible part, clear of the minimap, so a fan deep inside a block still knows which it is.
 */
function drawStickySections(f: Frame, m: SeatModel, v: View, size: number, mini: boolean): void {
  const px = 12;
  f.ctx.font = `bold ${px}px sans-serif`;
  f.ctx.textAlign = 'center';
  f.ctx.textBaseline = 'middle';
  const box = mini ? minimapBox(m, f.width) : null;
  const tops = new Map(m.sections.map((s) => [s.name, s.y]));
  for (const b of m.boxes) {
    const left = b.minX * v.scale + v.tx - size / 2;
    const right = b.maxX * v.scale + v.tx + size / 2;
    // Over the middle of the first row (a curved stand's ends rise above it), the plate clear of it.
    const top = (tops.get(b.name) ?? b.minY) * v.scale + v.ty - size / 2 - 11;
    const bottom = b.maxY * v.scale + v.ty;
    if (right < 0 || left > f.width || bottom < 0 || top > f.height) continue;
    const y = Math.min(Math.max(top, 14), bottom - 4);
    const under = box && y < box.y + box.h + px ? box.w + 8 : 0;
    const half = b.name.length * px * 0.5 + 6;
    const x = Math.min(
      Math.max((left + right) / 2, Math.max(left, 0) + half),
      Math.min(right, f.width - under) - half,
    );
    plate(f, b.name, x, y, px);
  }
}

/**
 * Row numbers left of each row's first seat; a row whose start is off screen gets its number at
 * the left edge (once per screen line), so the fan always knows which row a seat is in.
 */
function drawRowLabels(f: Frame, m: SeatModel, v: View, size: number): void {
  const px = Math.round(Math.min(12, Math.max(9, size * 0.6)));
  f.ctx.font = `${px}px sans-serif`;
  f.ctx.textAlign = 'center';
  f.ctx.textBaseline = 'middle';
  const edge = px + 2;
  const pinned = new Set<number>();
  for (const r of m.rows) {
    if (r.maxY * v.scale + v.ty < -px || r.minY * v.scale + v.ty > f.height + px) continue;
    const x = (r.x - m.pitch * 0.85) * v.scale + v.tx;
    if (x > f.width) continue;
    if (x >= edge) {
      f.ctx.fillStyle = '#8a8a99';
      f.ctx.fillText(r.name, x, r.y * v.scale + v.ty);
      continue;
    }
    // The row starts off screen: its number at the left edge, level with its first seat in view.
    const first = r.seats.find((i) => m.xs[i]! * v.scale + v.tx >= edge + size / 2);
    if (first === undefined) continue;
    const y = m.ys[first]! * v.scale + v.ty;
    const line = Math.round(y / Math.max(size, px * 1.2));
    if (y < -px || y > f.height + px || pinned.has(line)) continue;
    pinned.add(line);
    plate(f, r.name, edge + 2, y, px);
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

export interface DrawOptions {
  /** A tier the legend filter offers: the other tiers' seats are drawn washed out. */
  filter?: number | null;
  /** The fit view: the minimap shows once the fan zooms past it. */
  fit?: View | null;
}

export function drawSeatMap(
  f: Frame,
  m: SeatModel,
  v: View,
  selected: readonly number[],
  opts: DrawOptions = {},
): void {
  const { ctx, dpr } = f;
  const chosen = new Uint8Array(m.count);
  for (const i of selected) chosen[i] = 1;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = BACKGROUND;
  ctx.fillRect(0, 0, f.width, f.height);
  drawStage(f, m, v);
  const size = m.seatSize * v.scale;
  const zoomed = size >= LABEL_SEAT_PX;
  const mini = showsMinimap(v, opts.fit ?? null);
  if (!zoomed) drawSectionLabels(f, m, v, size);
  fillSeats(f, m, v, m.all, UNAVAILABLE_COLOR, (i) => m.state[i] !== AVAILABLE && !chosen[i]);
  const only = opts.filter ?? null;
  m.byTier.forEach((list, t) =>
    fillSeats(
      f,
      m,
      v,
      list,
      only === null || only === t ? m.colors[t]! : m.faded[t]!,
      (i) => m.state[i] === AVAILABLE && !chosen[i],
    ),
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
  if (zoomed) {
    drawRowLabels(f, m, v, size);
    drawStickySections(f, m, v, size, mini);
  }
  if (mini) drawMinimap(ctx, m, v, f.width, f.height);
}
