/** Pure geometry of the seat map: fitting, hit tests, box and lasso selection (unit-tested). */
import type { SeatPosition } from '@showtix/shared-types';

/** Every map the page draws (venue, session, builder preview) has at least these fields. */
export type PlotSeat = SeatPosition;

export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Screen = world * scale + translate. */
export interface View {
  scale: number;
  tx: number;
  ty: number;
}

export type Point = [number, number];

/** Room above the seats for the stage, in screen pixels (as on the fan's map). */
export const STAGE_SPACE = 60;
/** One seat is drawn a bit under the 10-unit pitch, like the fan's map. */
export const SEAT_SIZE = 7.8;

export function boundsOf(seats: { x: number; y: number }[]): Bounds {
  if (!seats.length) return { minX: 0, minY: 0, maxX: 100, maxY: 60 };
  const b = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (const s of seats) {
    if (s.x < b.minX) b.minX = s.x;
    if (s.x > b.maxX) b.maxX = s.x;
    if (s.y < b.minY) b.minY = s.y;
    if (s.y > b.maxY) b.maxY = s.y;
  }
  return b;
}

export function fitView(b: Bounds, width: number, height: number, pad = 24): View {
  const w = Math.max(b.maxX - b.minX + SEAT_SIZE, 1);
  const h = Math.max(b.maxY - b.minY + SEAT_SIZE, 1);
  const scale = Math.max(0.05, Math.min((width - 2 * pad) / w, (height - 2 * pad - STAGE_SPACE) / h));
  const tx = (width - w * scale) / 2 - (b.minX - SEAT_SIZE / 2) * scale;
  const ty =
    pad + STAGE_SPACE + (height - 2 * pad - STAGE_SPACE - h * scale) / 2 - (b.minY - SEAT_SIZE / 2) * scale;
  return { scale, tx, ty };
}

export function toWorld(v: View, sx: number, sy: number): Point {
  return [(sx - v.tx) / v.scale, (sy - v.ty) / v.scale];
}

/** Zooms by `factor` keeping the screen point (sx, sy) still. */
export function zoomAt(v: View, factor: number, sx: number, sy: number): View {
  const scale = Math.min(40, Math.max(0.05, v.scale * factor));
  const k = scale / v.scale;
  return { scale, tx: sx - (sx - v.tx) * k, ty: sy - (sy - v.ty) * k };
}

export function seatAt<T extends PlotSeat>(seats: T[], wx: number, wy: number): T | undefined {
  const half = SEAT_SIZE / 2 + 1;
  let best: T | undefined;
  let bestD = Infinity;
  for (const s of seats) {
    const dx = Math.abs(s.x - wx);
    const dy = Math.abs(s.y - wy);
    if (dx <= half && dy <= half && dx + dy < bestD) {
      best = s;
      bestD = dx + dy;
    }
  }
  return best;
}

export function seatsInRect(seats: PlotSeat[], a: Point, b: Point): string[] {
  const [x1, x2] = [Math.min(a[0], b[0]), Math.max(a[0], b[0])];
  const [y1, y2] = [Math.min(a[1], b[1]), Math.max(a[1], b[1])];
  return seats.filter((s) => s.x >= x1 && s.x <= x2 && s.y >= y1 && s.y <= y2).map((s) => s.id);
}

/** Even-odd ray casting. */
export function pointInPolygon(px: number, py: number, poly: Point[]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!;
    const [xj, yj] = poly[j]!;
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export function seatsInPolygon(seats: PlotSeat[], poly: Point[]): string[] {
  if (poly.length < 3) return [];
  const b = boundsOf(poly.map(([x, y]) => ({ x, y })));
  return seats
    .filter(
      (s) =>
        s.x >= b.minX && s.x <= b.maxX && s.y >= b.minY && s.y <= b.maxY && pointInPolygon(s.x, s.y, poly),
    )
    .map((s) => s.id);
}

export function sameRow(seats: PlotSeat[], seat: PlotSeat): string[] {
  return seats.filter((s) => s.section === seat.section && s.row === seat.row).map((s) => s.id);
}

export function sameSection(seats: PlotSeat[], seat: PlotSeat): string[] {
  return seats.filter((s) => s.section === seat.section).map((s) => s.id);
}

/** Where each section's name goes: centred above its seats. */
export function sectionLabels(seats: PlotSeat[]): { name: string; x: number; y: number }[] {
  const by = new Map<string, Bounds>();
  for (const s of seats) {
    const b = by.get(s.section) ?? { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
    b.minX = Math.min(b.minX, s.x);
    b.maxX = Math.max(b.maxX, s.x);
    b.minY = Math.min(b.minY, s.y);
    b.maxY = Math.max(b.maxY, s.y);
    by.set(s.section, b);
  }
  return [...by].map(([name, b]) => ({ name, x: (b.minX + b.maxX) / 2, y: b.minY }));
}

/** One seat label everywhere (shared-types): "内场A区 3排12座", never "内场A区区". */
export { seatLabel } from '@showtix/shared-types';
