import type { SeatMap, SeatMapSeat, Tier } from '@showtix/shared-types';
import { fade, rowLabels, sectionBoxes, type RowLabel, type SectionBox } from './labels';

/** Seat states as small integers, so 10,000 of them fit one typed array. */
export const AVAILABLE = 0;
export const HELD = 1;
export const SOLD = 2;

/** Seats that cannot be picked (sold or held) and seats the fan picked: no tier may look like them. */
export const UNAVAILABLE_COLOR = '#d9d9de';
export const SELECTED_COLOR = '#16a34a';

// Automatic tier colours: far from each other and from the two state colours above (no green,
// no grey), so a tier never reads as "picked" or "taken".
const PALETTE = ['#e4393c', '#ff8a00', '#2f7cf6', '#13a8a8', '#7b61ff', '#c41d7f', '#b8860b', '#8c5a2b'];

export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export interface SectionLabel {
  name: string;
  x: number;
  y: number;
}

/**
 * The seat map in columnar form: typed arrays indexed by seat number, per-tier index lists for
 * batched drawing, and a uniform grid for hit testing. Built once per map; live states only
 * rewrite `state`.
 */
export interface SeatModel {
  count: number;
  ids: string[];
  seats: SeatMapSeat[];
  xs: Float32Array;
  ys: Float32Array;
  tierOf: Uint16Array;
  state: Uint8Array;
  index: Map<string, number>;
  tiers: Tier[];
  colors: string[];
  /** The tier colours washed out: seats of the tiers a legend filter does not offer. */
  faded: string[];
  byTier: Uint32Array[];
  /** 0..count-1, for passes over every seat with the same code as per-tier passes. */
  all: Uint32Array;
  bounds: Bounds;
  /** Drawing size of one seat in venue units (a bit under the seat pitch). */
  seatSize: number;
  /** Distance between neighbouring seats in venue units (the median nearest-neighbour gap). */
  pitch: number;
  sections: SectionLabel[];
  /** Each section's extent: names that stay on screen in a zoomed section, and the minimap. */
  boxes: SectionBox[];
  /** Row numbers, written left of each row once seats are big enough to tell rows apart. */
  rows: RowLabel[];
  grid: { cell: number; cols: number; rows: number; starts: Uint32Array; items: Uint32Array };
}

function rgb(hex: string): [number, number, number] | undefined {
  const m = /^#?([\da-f]{2})([\da-f]{2})([\da-f]{2})$/i.exec(hex.trim());
  return m ? [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)] : undefined;
}

/** Two colours a fan could mistake for each other on a small seat (RGB distance). */
export function looksAlike(a: string, b: string): boolean {
  const [x, y] = [rgb(a), rgb(b)];
  if (!x || !y) return a.trim().toLowerCase() === b.trim().toLowerCase();
  return Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]) < 60;
}

const looksLikeState = (c: string) => looksAlike(c, SELECTED_COLOR) || looksAlike(c, UNAVAILABLE_COLOR);

/**
 * One colour per tier: the organiser's, unless it looks like a seat state (picked, taken);
 * otherwise the next palette colour that no other tier already shows.
 */
export function tierColors(tiers: Tier[]): string[] {
  const own = tiers.map((t) => (t.color && !looksLikeState(t.color) ? t.color : undefined));
  const used = own.filter((c): c is string => Boolean(c));
  let next = 0;
  return own.map((c) => {
    if (c) return c;
    for (let k = 0; k < PALETTE.length; k++) {
      const pick = PALETTE[(next + k) % PALETTE.length]!;
      if (!used.some((u) => looksAlike(u, pick))) {
        next = (next + k + 1) % PALETTE.length;
        used.push(pick);
        return pick;
      }
    }
    return PALETTE[next++ % PALETTE.length]!; // more tiers than colours: repeat, in order
  });
}

function boundsOf(xs: Float32Array, ys: Float32Array): Bounds {
  const b = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (let i = 0; i < xs.length; i++) {
    if (xs[i]! < b.minX) b.minX = xs[i]!;
    if (xs[i]! > b.maxX) b.maxX = xs[i]!;
    if (ys[i]! < b.minY) b.minY = ys[i]!;
    if (ys[i]! > b.maxY) b.maxY = ys[i]!;
  }
  return xs.length ? b : { minX: 0, minY: 0, maxX: 0, maxY: 0 };
}

/** Bucket sort of seat indices into grid cells (counting sort: two passes, no per-cell arrays). */
function buildGrid(xs: Float32Array, ys: Float32Array, b: Bounds, cell: number): SeatModel['grid'] {
  const cols = Math.max(1, Math.ceil((b.maxX - b.minX) / cell) + 1);
  const rows = Math.max(1, Math.ceil((b.maxY - b.minY) / cell) + 1);
  const cellOf = (i: number) =>
    Math.floor((ys[i]! - b.minY) / cell) * cols + Math.floor((xs[i]! - b.minX) / cell);
  const starts = new Uint32Array(cols * rows + 1);
  for (let i = 0; i < xs.length; i++) starts[cellOf(i) + 1]!++;
  for (let c = 0; c < cols * rows; c++) starts[c + 1]! += starts[c]!;
  const fill = starts.slice(0, cols * rows);
  const items = new Uint32Array(xs.length);
  for (let i = 0; i < xs.length; i++) items[fill[cellOf(i)]!++] = i;
  return { cell, cols, rows, starts, items };
}

/** Median nearest-neighbour distance of a sample: the seat pitch, whatever units the venue uses. */
function estimatePitch(xs: Float32Array, ys: Float32Array): number {
  const n = xs.length;
  if (n < 2) return 10;
  const step = Math.max(1, Math.floor(n / 64));
  const dists: number[] = [];
  for (let i = 0; i < n; i += step) {
    let best = Infinity;
    const lo = Math.max(0, i - 80);
    const hi = Math.min(n, i + 80);
    for (let j = lo; j < hi; j++) {
      if (j === i) continue;
      const d = Math.hypot(xs[i]! - xs[j]!, ys[i]! - ys[j]!);
      if (d > 0 && d < best) best = d;
    }
    if (best < Infinity) dists.push(best);
  }
  dists.sort((a, b) => a - b);
  return dists[Math.floor(dists.length / 2)] ?? 10;
}

/**
 * One label per section, centred above it: above the seats near its middle, which for a curved
 * stand are lower than its ends (the ends would put the label on the block in front).
 */
function sectionLabels(seats: SeatMapSeat[]): SectionLabel[] {
  const acc = new Map<string, { minX: number; maxX: number; minY: number; top: number }>();
  for (const s of seats) {
    const a = acc.get(s.section);
    if (!a) acc.set(s.section, { minX: s.x, maxX: s.x, minY: s.y, top: Infinity });
    else {
      a.minX = Math.min(a.minX, s.x);
      a.maxX = Math.max(a.maxX, s.x);
      a.minY = Math.min(a.minY, s.y);
    }
  }
  for (const s of seats) {
    const a = acc.get(s.section)!;
    const mid = (a.minX + a.maxX) / 2;
    if (Math.abs(s.x - mid) <= Math.max((a.maxX - a.minX) * 0.1, 1) && s.y < a.top) a.top = s.y;
  }
  // No seat near the middle (two blocks with a wide aisle): above the section's highest seat.
  return [...acc].map(([name, a]) => ({
    name,
    x: (a.minX + a.maxX) / 2,
    y: a.top === Infinity ? a.minY : a.top,
  }));
}

function allSeats(n: number): Uint32Array {
  const all = new Uint32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  return all;
}

const STATE_CODE = { available: AVAILABLE, held: HELD, sold: SOLD } as const;

export function buildModel(map: Pick<SeatMap, 'seats' | 'tiers'>): SeatModel {
  const n = map.seats.length;
  const xs = new Float32Array(n);
  const ys = new Float32Array(n);
  const tierOf = new Uint16Array(n);
  const state = new Uint8Array(n);
  const ids: string[] = new Array<string>(n);
  const index = new Map<string, number>();
  const tierIndex = new Map(map.tiers.map((t, i) => [t.id, i]));
  const counts = new Uint32Array(map.tiers.length);
  map.seats.forEach((s, i) => {
    xs[i] = s.x;
    ys[i] = s.y;
    ids[i] = s.id;
    index.set(s.id, i);
    const t = tierIndex.get(s.tierId) ?? 0;
    tierOf[i] = t;
    counts[t]!++;
    state[i] = STATE_CODE[s.state] ?? SOLD;
  });
  const byTier = map.tiers.map((_, t) => new Uint32Array(counts[t]!));
  const fill = new Uint32Array(map.tiers.length);
  for (let i = 0; i < n; i++) byTier[tierOf[i]!]![fill[tierOf[i]!]!++] = i;
  const bounds = boundsOf(xs, ys);
  const pitch = estimatePitch(xs, ys);
  const colors = tierColors(map.tiers);
  let rows: RowLabel[] | undefined;
  return {
    count: n,
    ids,
    seats: map.seats,
    xs,
    ys,
    tierOf,
    state,
    index,
    tiers: map.tiers,
    colors,
    faded: colors.map((c) => fade(c)),
    byTier,
    all: allSeats(n),
    bounds,
    seatSize: pitch * 0.78,
    pitch,
    sections: sectionLabels(map.seats),
    boxes: sectionBoxes(map.seats),
    // Row numbers show only once the fan zooms in: built then, not before the first draw.
    get rows() {
      return (rows ??= rowLabels(map.seats));
    },
    grid: buildGrid(xs, ys, bounds, pitch * 2),
  };
}

/** The seat whose square contains the venue point, or -1. */
export function seatAt(m: SeatModel, wx: number, wy: number): number {
  const { cell, cols, rows, starts, items } = m.grid;
  const cx = Math.floor((wx - m.bounds.minX) / cell);
  const cy = Math.floor((wy - m.bounds.minY) / cell);
  const half = m.seatSize / 2 + m.seatSize * 0.15; // a little slack for fingers
  let best = -1;
  let bestD = Infinity;
  for (let y = cy - 1; y <= cy + 1; y++) {
    if (y < 0 || y >= rows) continue;
    for (let x = cx - 1; x <= cx + 1; x++) {
      if (x < 0 || x >= cols) continue;
      for (let k = starts[y * cols + x]!; k < starts[y * cols + x + 1]!; k++) {
        const i = items[k]!;
        const dx = Math.abs(m.xs[i]! - wx);
        const dy = Math.abs(m.ys[i]! - wy);
        if (dx <= half && dy <= half && dx + dy < bestD) {
          best = i;
          bestD = dx + dy;
        }
      }
    }
  }
  return best;
}

/** One seat label everywhere (shared-types): "内场A区 3排12座". */
export { seatLabel } from '../services/shared';
