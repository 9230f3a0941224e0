import type { SeatSpec } from '../layout';

export interface LayoutProblems {
  duplicates: string[];
  overlaps: number;
}

/** Two seats with one label cannot be stored; two at one spot can, but the builder warns. */
export function checkLayout(seats: SeatSpec[]): LayoutProblems {
  const labels = new Set<string>();
  const spots = new Set<string>();
  const duplicates: string[] = [];
  let overlaps = 0;
  for (const s of seats) {
    const label = `${s.section}区${s.row}排${s.number}号`;
    if (labels.has(label)) duplicates.push(label);
    labels.add(label);
    const spot = `${Math.round(s.x)},${Math.round(s.y)}`;
    if (spots.has(spot)) overlaps++;
    spots.add(spot);
  }
  return { duplicates, overlaps };
}
