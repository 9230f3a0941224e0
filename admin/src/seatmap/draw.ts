import { sectionLabel } from '@showtix/shared-types';
import {
  SEAT_SIZE,
  sectionLabels,
  STAGE_SPACE,
  type Bounds,
  type PlotSeat,
  type Point,
  type View,
} from './geometry';

const BACKGROUND = '#fbfbfd';
export const UNAVAILABLE = '#d9d9de';
/** The fan's mini-program palette, so the preview looks like what fans see. */
export const PALETTE = [
  '#e4393c',
  '#ff8a00',
  '#2f7cf6',
  '#13a8a8',
  '#7b61ff',
  '#52a41a',
  '#d4380d',
  '#c41d7f',
];

/** Each section in its own palette colour, in the order given: venue maps, which have no tiers. */
export function colorBySection(sections: string[]): (s: { section: string }) => string {
  const color = new Map(sections.map((name, i) => [name, PALETTE[i % PALETTE.length]!]));
  return (s) => color.get(s.section) ?? PALETTE[0]!;
}

export interface DrawInput {
  seats: PlotSeat[];
  colorOf: (s: PlotSeat) => string;
  selected: ReadonlySet<string>;
  bounds: Bounds;
  view: View;
  width: number;
  height: number;
  /** The box or lasso being drawn, in screen pixels. */
  gesture?: { kind: 'box' | 'lasso'; points: Point[] };
}

function drawStage(ctx: CanvasRenderingContext2D, d: DrawInput): void {
  const left = d.bounds.minX * d.view.scale + d.view.tx;
  const right = d.bounds.maxX * d.view.scale + d.view.tx;
  const top = d.bounds.minY * d.view.scale + d.view.ty - STAGE_SPACE;
  const w = Math.min(Math.max((right - left) * 0.5, 120), right - left + 40);
  const x = (left + right) / 2 - w / 2;
  ctx.fillStyle = '#2b2b3a';
  ctx.fillRect(x, top, w, 24);
  ctx.fillStyle = '#fff';
  ctx.font = '13px sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText('舞 台', x + w / 2, top + 12);
}

/** One path per colour, so thousands of seats cost a handful of fill() calls. */
function drawSeats(ctx: CanvasRenderingContext2D, d: DrawInput): void {
  const size = Math.max(SEAT_SIZE * d.view.scale, 1.5);
  const half = size / 2;
  const byColor = new Map<string, PlotSeat[]>();
  for (const s of d.seats) {
    const c = d.colorOf(s);
    const list = byColor.get(c);
    if (list) list.push(s);
    else byColor.set(c, [s]);
  }
  for (const [color, list] of byColor) {
    ctx.fillStyle = color;
    ctx.beginPath();
    for (const s of list) {
      const x = s.x * d.view.scale + d.view.tx - half;
      const y = s.y * d.view.scale + d.view.ty - half;
      if (x > d.width || y > d.height || x + size < 0 || y + size < 0) continue;
      ctx.rect(x, y, size, size);
    }
    ctx.fill();
  }
  if (!d.selected.size) return;
  ctx.strokeStyle = '#111827';
  ctx.lineWidth = Math.max(1, Math.min(2, size / 5));
  ctx.beginPath();
  for (const s of d.seats) {
    if (!d.selected.has(s.id)) continue;
    ctx.rect(s.x * d.view.scale + d.view.tx - half, s.y * d.view.scale + d.view.ty - half, size, size);
  }
  ctx.stroke();
}

function drawLabels(ctx: CanvasRenderingContext2D, d: DrawInput): void {
  if (SEAT_SIZE * d.view.scale < 3) return;
  ctx.font = '12px sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  ctx.lineWidth = 3;
  ctx.strokeStyle = 'rgba(251,251,253,0.9)';
  ctx.fillStyle = '#4b4b5b';
  for (const l of sectionLabels(d.seats)) {
    const x = l.x * d.view.scale + d.view.tx;
    const y = l.y * d.view.scale + d.view.ty - SEAT_SIZE * d.view.scale * 0.8;
    ctx.strokeText(sectionLabel(l.name), x, y);
    ctx.fillText(sectionLabel(l.name), x, y);
  }
}

function drawGesture(ctx: CanvasRenderingContext2D, g: NonNullable<DrawInput['gesture']>): void {
  if (g.points.length < 2) return;
  ctx.strokeStyle = '#2f7cf6';
  ctx.fillStyle = 'rgba(47,124,246,0.12)';
  ctx.lineWidth = 1.5;
  ctx.setLineDash([5, 4]);
  ctx.beginPath();
  if (g.kind === 'box') {
    const [a, b] = [g.points[0]!, g.points[g.points.length - 1]!];
    ctx.rect(Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.abs(b[0] - a[0]), Math.abs(b[1] - a[1]));
  } else {
    ctx.moveTo(...g.points[0]!);
    for (const p of g.points.slice(1)) ctx.lineTo(...p);
    ctx.closePath();
  }
  ctx.fill();
  ctx.stroke();
  ctx.setLineDash([]);
}

export function drawSeatMap(ctx: CanvasRenderingContext2D, dpr: number, d: DrawInput): void {
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = BACKGROUND;
  ctx.fillRect(0, 0, d.width, d.height);
  if (d.seats.length) drawStage(ctx, d);
  drawLabels(ctx, d);
  drawSeats(ctx, d);
  if (d.gesture) drawGesture(ctx, d.gesture);
}
