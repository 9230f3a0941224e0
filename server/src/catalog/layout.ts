/** Venue layouts: rectangular or curved blocks of seats with drawing coordinates. */
export interface SeatSpec {
  section: string;
  row: string;
  number: string;
  x: number;
  y: number;
}

export interface BlockSpec {
  section: string;
  rows: number;
  seatsPerRow: number;
  /** Top-left corner of the block, in venue units (one seat is 10 units wide). */
  originX: number;
  originY: number;
  /** Rows bow towards the stage by this many units at their ends (0 = straight). */
  curve?: number;
  /** 1-based seat numbers left out of every row (aisles). */
  gaps?: number[];
}

export const SEAT_PITCH = 10;

export function blockSeats(b: BlockSpec): SeatSpec[] {
  const seats: SeatSpec[] = [];
  const mid = (b.seatsPerRow - 1) / 2;
  for (let r = 0; r < b.rows; r++) {
    for (let n = 0; n < b.seatsPerRow; n++) {
      if (b.gaps?.includes(n + 1)) continue;
      const bow = b.curve ? Math.round(b.curve * ((n - mid) / Math.max(mid, 1)) ** 2) : 0;
      seats.push({
        section: b.section,
        row: String(r + 1),
        number: String(n + 1),
        x: b.originX + n * SEAT_PITCH,
        y: b.originY + r * SEAT_PITCH * 1.2 - bow,
      });
    }
  }
  return seats;
}
