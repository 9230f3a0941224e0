import type { SeatMapSeat } from '@showtix/shared-types';
import type { Bounds } from './model';

/**
 * Where the map writes a row's number: just left of the row's first seat (its leftmost one, so a
 * curved row gets it at its own height).
 */
export interface RowLabel {
  section: string;
  name: string;
  x: number;
  y: number;
}

/** A section's extent in venue units: for labels that follow the fan into a zoomed section. */
export interface SectionBox extends Bounds {
  name: string;
}

/** One label per row of each section, and each section's bounding box: built once per map. */
export function rowLabels(seats: readonly SeatMapSeat[]): RowLabel[] {
  const first = new Map<string, RowLabel>();
  for (const s of seats) {
    const key = `${s.section}\u0000${s.row}`;
    const a = first.get(key);
    if (!a || s.x < a.x) first.set(key, { section: s.section, name: s.row, x: s.x, y: s.y });
  }
  return [...first.values()];
}

export function sectionBoxes(seats: readonly SeatMapSeat[]): SectionBox[] {
  const acc = new Map<string, SectionBox>();
  for (const s of seats) {
    const b = acc.get(s.section);
    if (!b) acc.set(s.section, { name: s.section, minX: s.x, maxX: s.x, minY: s.y, maxY: s.y });
    else {
      b.minX = Math.min(b.minX, s.x);
      b.maxX = Math.max(b.maxX, s.x);
      b.minY = Math.min(b.minY, s.y);
      b.maxY = Math.max(b.maxY, s.y);
    }
  }
  return [...acc.values()];
}

/** A tier colour washed towards the map's background: seats shown but not offered by a filter. */
export function fade(hex: string, keep = 0.28, bg: [number, number, number] = [251, 251, 253]): string {
  const m = /^#?([\da-f]{2})([\da-f]{2})([\da-f]{2})$/i.exec(hex.trim());
  if (!m) return '#ececf1';
  const mix = (i: number) =>
    Math.round(parseInt(m[i + 1]!, 16) * keep + bg[i]! * (1 - keep))
      .toString(16)
      .padStart(2, '0');
  return `#${mix(0)}${mix(1)}${mix(2)}`;
}
