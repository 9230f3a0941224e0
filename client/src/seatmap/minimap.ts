import type { SeatModel } from './model';
import type { Ctx2D } from './ctx';
import type { View } from './viewport';

/**
 * The minimap: the whole venue in a corner of the canvas, with a frame around what the zoomed
 * map shows. It appears once the fan has zoomed in (at fit zoom the map is its own overview);
 * a tap on it moves the view there. Geometry here is shared by the drawing and the hit test.
 */
export interface MinimapBox {
  x: number;
  y: number;
  w: number;
  h: number;
  /** Minimap pixels per venue unit. */
  k: number;
}

const MAX_W = 104;
const MAX_H = 72;
const MARGIN = 8;
const INSET = 5;

/** Zoomed in enough (10% past the fit) for the minimap to be worth its corner. */
export function showsMinimap(v: View, fit: View | null): boolean {
  return Boolean(fit) && v.scale > fit!.scale * 1.1;
}

export function minimapBox(m: SeatModel, width: number): MinimapBox {
  const b = m.bounds;
  const vw = Math.max(b.maxX - b.minX + m.seatSize, 1);
  const vh = Math.max(b.maxY - b.minY + m.seatSize, 1);
  const k = Math.min((MAX_W - 2 * INSET) / vw, (MAX_H - 2 * INSET) / vh);
  const w = vw * k + 2 * INSET;
  const h = vh * k + 2 * INSET;
  return { x: width - MARGIN - w, y: MARGIN, w, h, k };
}

/** Minimap pixel of a venue point. */
function toMini(m: SeatModel, box: MinimapBox, wx: number, wy: number): { x: number; y: number } {
  return {
    x: box.x + INSET + (wx - m.bounds.minX + m.seatSize / 2) * box.k,
    y: box.y + INSET + (wy - m.bounds.minY + m.seatSize / 2) * box.k,
  };
}

/** The venue point under a minimap pixel, or null when the point is outside the minimap. */
export function fromMini(
  m: SeatModel,
  box: MinimapBox,
  sx: number,
  sy: number,
): { x: number; y: number } | null {
  if (sx < box.x || sx > box.x + box.w || sy < box.y || sy > box.y + box.h) return null;
  return {
    x: (sx - box.x - INSET) / box.k + m.bounds.minX - m.seatSize / 2,
    y: (sy - box.y - INSET) / box.k + m.bounds.minY - m.seatSize / 2,
  };
}

/** Sections as grey blocks, the visible part of the venue as a red frame. */
export function drawMinimap(ctx: Ctx2D, m: SeatModel, v: View, width: number, height: number): void {
  const box = minimapBox(m, width);
  ctx.fillStyle = 'rgba(255,255,255,0.94)';
  ctx.fillRect(box.x, box.y, box.w, box.h);
  ctx.strokeStyle = '#c9c9d1';
  ctx.lineWidth = 1;
  ctx.strokeRect(box.x + 0.5, box.y + 0.5, box.w - 1, box.h - 1);
  ctx.fillStyle = '#b7b7c2';
  const half = m.seatSize / 2;
  for (const s of m.boxes) {
    const a = toMini(m, box, s.minX - half, s.minY - half);
    const z = toMini(m, box, s.maxX + half, s.maxY + half);
    ctx.fillRect(a.x, a.y, Math.max(z.x - a.x, 1), Math.max(z.y - a.y, 1));
  }
  // The screen's corners in venue units, clipped to the minimap.
  const a = toMini(m, box, -v.tx / v.scale, -v.ty / v.scale);
  const z = toMini(m, box, (width - v.tx) / v.scale, (height - v.ty) / v.scale);
  const x0 = Math.max(a.x, box.x);
  const y0 = Math.max(a.y, box.y);
  const x1 = Math.min(z.x, box.x + box.w);
  const y1 = Math.min(z.y, box.y + box.h);
  if (x1 <= x0 || y1 <= y0) return;
  ctx.strokeStyle = '#e4393c';
  ctx.lineWidth = 1.5;
  ctx.strokeRect(x0, y0, x1 - x0, y1 - y0);
}
