import type { BlockSpec } from '@showtix/shared-types';
import { SEAT_PITCH, type SeatSpec } from '../../catalog/layout';

/**
 * The venue builder's grid generator: the catalog's rectangular/curved blocks (catalog/layout.ts)
 * plus aisles that keep numbering going, cross aisles between rows, fan-shaped blocks that widen
 * towards the back, letter row labels and odd/even seat numbering. With none of those options it
 * lays seats out exactly as blockSeats does.
 */
export const ROW_PITCH = SEAT_PITCH * 1.2;

export function rowLabel(index: number, style: BlockSpec['rowLabels'], first: number): string {
  const n = first + index;
  if (style === 'number') return String(n);
  let label = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26))
    label = String.fromCharCode(65 + ((k - 1) % 26)) + label;
  return label;
}

/** Seat number of 1-based position p in a row of n seats. */
export function seatNumber(p: number, n: number, numbering: BlockSpec['numbering']): number {
  if (numbering === 'ltr') return p;
  if (numbering === 'rtl') return n - p + 1;
  const leftHalf = Math.floor(n / 2);
  return p <= leftHalf ? 2 * (leftHalf - p + 1) : 2 * (p - leftHalf) - 1;
}

/** Physical width of a row of n seats, in seat pitches: its seats plus the aisles inside it. */
function rowWidth(n: number, aisles: number[]): number {
  return n + aisles.filter((a) => a < n).length;
}

export function generateBlock(b: BlockSpec): SeatSpec[] {
  const seats: SeatSpec[] = [];
  const gaps = new Set(b.gaps);
  const widest = rowWidth(b.seatsPerRow + (b.rows - 1) * b.widenPerRow, b.aisles);
  const mid = (widest - 1) / 2;
  let crossAisles = 0;
  for (let r = 0; r < b.rows; r++) {
    const n = b.seatsPerRow + r * b.widenPerRow;
    // Narrower rows are centred, so a fan-shaped block stays symmetric about its centre line.
    const inset = (widest - rowWidth(n, b.aisles)) / 2;
    for (let p = 1; p <= n; p++) {
      if (gaps.has(p)) continue;
      const slot = inset + p - 1 + b.aisles.filter((a) => a < p).length;
      const bow = b.curve ? Math.round(b.curve * ((slot - mid) / Math.max(mid, 1)) ** 2) : 0;
      seats.push({
        section: b.section,
        row: rowLabel(r, b.rowLabels, b.firstRow),
        number: String(seatNumber(p, n, b.numbering)),
        x: Math.round(b.originX + slot * SEAT_PITCH),
        y: Math.round(b.originY + (r + crossAisles) * ROW_PITCH - bow),
      });
    }
    if (b.rowAisles.includes(r + b.firstRow)) crossAisles++;
  }
  return seats;
}

export function generateLayout(blocks: BlockSpec[]): SeatSpec[] {
  return blocks.flatMap(generateBlock);
}

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
