import { VENUE_SEATS_MAX, type BlockSpec, type SeatSpecInput } from '@showtix/shared-types';
import { appError } from '../errors';

/**
 * Venue layouts: blocks of seats with drawing coordinates, as the admin's venue builder, the
 * demo seed and the tests make them. A block is rectangular or curved, with aisles that keep
 * numbering going, cross aisles between rows, fan-shaped widening towards the back, letter row
 * labels and odd/even seat numbering.
 */
export type SeatSpec = SeatSpecInput;

/** One seat is this many venue units wide; rows are 1.2 seats apart. */
export const SEAT_PITCH = 10;
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

/** How many seats a block makes, counted row by row without making them. */
export function countBlockSeats(b: Pick<BlockSpec, 'rows' | 'seatsPerRow' | 'widenPerRow' | 'gaps'>): number {
  const gaps = [...new Set(b.gaps)];
  let total = 0;
  for (let r = 0; r < b.rows; r++) {
    const n = b.seatsPerRow + r * (b.widenPerRow ?? 0);
    total += n - gaps.filter((g) => g <= n).length;
  }
  return total;
}

/**
 * Refuses a layout above the venue cap BEFORE any seat is made: 50 blocks of the largest kind
 * would otherwise expand to millions of seat objects in memory first. `extra`: explicit seats.
 */
export function checkSeatCount(blocks: BlockSpec[], extra = 0): void {
  const total = blocks.reduce((sum, b) => sum + countBlockSeats(b), extra);
  if (total > VENUE_SEATS_MAX)
    throw appError(
      'VALIDATION_FAILED',
      { seats: total, max: VENUE_SEATS_MAX },
      `座位总数 ${total} 超过上限 ${VENUE_SEATS_MAX}`,
    );
}

export function generateLayout(blocks: BlockSpec[], extra = 0): SeatSpec[] {
  checkSeatCount(blocks, extra);
  return blocks.flatMap(generateBlock);
}

/** A plain block (optionally curved, with gaps) for the seed, fixtures and benchmarks. */
export function blockSeats(
  b: Pick<BlockSpec, 'section' | 'rows' | 'seatsPerRow' | 'originX' | 'originY'> &
    Partial<Pick<BlockSpec, 'curve' | 'gaps'>>,
): SeatSpec[] {
  return generateBlock({
    curve: 0,
    gaps: [],
    widenPerRow: 0,
    aisles: [],
    rowAisles: [],
    rowLabels: 'number',
    firstRow: 1,
    numbering: 'ltr',
    ...b,
  });
}
