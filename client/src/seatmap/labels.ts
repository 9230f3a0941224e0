import type { SeatMapSeat } from '@showtix/shared-types';

/**
 * Where the map writes a row's number: just left of the row's first seat (its leftmost one, so a
 * curved row gets it at its own height). `seats` are the row's seat indices from left to right:
 * a row that starts off screen gets its number at the height of its first seat on screen.
 */
export interface RowLabel {
  section: string;
  name: string;
  x: number;
  y: number;
  minY: number;
  maxY: number;
  seats: number[];
}

/** One label per row of each section, built once per map. */
export function rowLabels(seats: readonly SeatMapSeat[]): RowLabel[] {
  const rows = new Map<string, RowLabel>();
  let last: RowLabel | undefined;
  seats.forEach((s, i) => {
    // A row's seats usually come one after another: no key string and map lookup for those.
    const key = last && last.section === s.section && last.name === s.row ? '' : `${s.section}\u0000${s.row}`;
    const r = key ? rows.get(key) : last;
    if (!r) {
      last = { section: s.section, name: s.row, x: s.x, y: s.y, minY: s.y, maxY: s.y, seats: [i] };
      rows.set(key, last);
      return;
    }
    last = r;
    r.seats.push(i);
    r.minY = Math.min(r.minY, s.y);
    r.maxY = Math.max(r.maxY, s.y);
    if (s.x < r.x) Object.assign(r, { x: s.x, y: s.y });
  });
  for (const r of rows.values()) r.seats.sort((a, b) => seats[a]!.x - seats[b]!.x);
  return [...rows.values()];
}

/** A section's extent, for names that follow the fan into a zoomed section and the minimap. */
export interface SectionBox {
  name: string;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export function sectionBoxes(seats: readonly SeatMapSeat[]): SectionBox[] {
  const acc = new Map<string, SectionBox>();
  let last: SectionBox | undefined;
  for (const s of seats) {
    const b = last?.name === s.section ? last : acc.get(s.section); // a section's seats run together
    if (!b) {
      last = { name: s.section, minX: s.x, maxX: s.x, minY: s.y, maxY: s.y };
      acc.set(s.section, last);
    } else {
      last = b;
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
