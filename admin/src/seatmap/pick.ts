/** Pure selection rules of the canvas tools: what a click, box or lasso picks (no React). */
import type { PlotSeat, Point, View } from './geometry';
import { sameRow, sameSection, seatAt, seatsInPolygon, seatsInRect, toWorld } from './geometry';

export type SelectMode = 'view' | 'seat' | 'row' | 'section' | 'box' | 'lasso';
export interface Gesture {
  kind: 'box' | 'lasso';
  points: Point[];
}

/** A box keeps its first corner and the pointer; a lasso keeps every point. */
export function extendGesture(g: Gesture, p: Point): Gesture {
  return { ...g, points: g.kind === 'box' ? [g.points[0]!, p] : [...g.points, p] };
}

/** Seats inside a finished box or lasso (screen points, ending at `end`). */
export function gestureIds(seats: PlotSeat[], view: View, g: Gesture, end: Point): string[] {
  const pts = g.points.map(([px, py]) => toWorld(view, px, py));
  return g.kind === 'box' ? seatsInRect(seats, pts[0]!, toWorld(view, ...end)) : seatsInPolygon(seats, pts);
}

/** Seats a click at screen point `p` picks: the seat, its row or its section. */
export function clickIds(mode: SelectMode, seats: PlotSeat[], view: View, p: Point): string[] | undefined {
  const [wx, wy] = toWorld(view, ...p);
  const s = seatAt(seats, wx, wy);
  if (!s) return undefined;
  return mode === 'row' ? sameRow(seats, s) : mode === 'section' ? sameSection(seats, s) : [s.id];
}
