import type { Bounds } from './model';

/** Screen = venue * scale + offset. Screen units are CSS pixels of the canvas. */
export interface View {
  scale: number;
  tx: number;
  ty: number;
  minScale: number;
  maxScale: number;
}

/** Room above the seats for the stage drawing, in screen pixels. */
export const STAGE_SPACE = 44;
const PAD = 16;

export function fitView(b: Bounds, seatSize: number, width: number, height: number): View {
  const w = Math.max(b.maxX - b.minX + seatSize, 1);
  const h = Math.max(b.maxY - b.minY + seatSize, 1);
  const scale = Math.min((width - 2 * PAD) / w, (height - 2 * PAD - STAGE_SPACE) / h);
  const tx = (width - w * scale) / 2 - (b.minX - seatSize / 2) * scale;
  const ty =
    PAD + STAGE_SPACE + (height - 2 * PAD - STAGE_SPACE - h * scale) / 2 - (b.minY - seatSize / 2) * scale;
  // Zooming in stops when one seat is about 44 px, a comfortable finger target.
  return { scale, tx, ty, minScale: scale * 0.8, maxScale: Math.max(scale * 1.5, 44 / seatSize) };
}

export function toWorld(v: View, sx: number, sy: number): { x: number; y: number } {
  return { x: (sx - v.tx) / v.scale, y: (sy - v.ty) / v.scale };
}

export function toScreen(v: View, wx: number, wy: number): { x: number; y: number } {
  return { x: wx * v.scale + v.tx, y: wy * v.scale + v.ty };
}

/** Zoom by `factor` keeping the screen point (cx, cy) over the same venue point. */
export function zoomAt(v: View, factor: number, cx: number, cy: number): View {
  const scale = Math.min(v.maxScale, Math.max(v.minScale, v.scale * factor));
  const k = scale / v.scale;
  return { ...v, scale, tx: cx - (cx - v.tx) * k, ty: cy - (cy - v.ty) * k };
}

export function panBy(v: View, dx: number, dy: number): View {
  return { ...v, tx: v.tx + dx, ty: v.ty + dy };
}

/** Keeps some of the venue on screen so a fling cannot lose the map. */
export function clampView(v: View, b: Bounds, width: number, height: number): View {
  const margin = 60;
  const left = b.minX * v.scale + v.tx;
  const right = b.maxX * v.scale + v.tx;
  const top = b.minY * v.scale + v.ty;
  const bottom = b.maxY * v.scale + v.ty;
  let { tx, ty } = v;
  if (right < margin) tx += margin - right;
  if (left > width - margin) tx -= left - (width - margin);
  if (bottom < margin) ty += margin - bottom;
  if (top > height - margin) ty -= top - (height - margin);
  return tx === v.tx && ty === v.ty ? v : { ...v, tx, ty };
}
