import { AVAILABLE, type SeatModel } from './model';

/**
 * The seat map as lists, for fans who cannot use the canvas (screen readers, motor impairments):
 * sections, then the rows of a section, then the seats of a row, each in the venue's own order.
 * Pure functions over the model the canvas draws, so both views agree on every seat's state.
 */
const byNatural = (a: string, b: string) => a.localeCompare(b, 'zh-Hans-CN', { numeric: true });

export function sectionsOf(m: SeatModel): string[] {
  return [...new Set(m.seats.map((s) => s.section))].sort(byNatural);
}

export function rowsOf(m: SeatModel, section: string): string[] {
  return [...new Set(m.seats.filter((s) => s.section === section).map((s) => s.row))].sort(byNatural);
}

export interface ListedSeat {
  index: number;
  number: string;
  priceFen: number;
  free: boolean;
}

/** The seats of one row with their price and whether they can be picked now. */
export function seatsOf(m: SeatModel, section: string, row: string): ListedSeat[] {
  const out: ListedSeat[] = [];
  m.seats.forEach((s, i) => {
    if (s.section !== section || s.row !== row) return;
    out.push({
      index: i,
      number: s.number,
      priceFen: m.tiers[m.tierOf[i]!]!.priceFen,
      free: m.state[i] === AVAILABLE,
    });
  });
  return out.sort((a, b) => byNatural(a.number, b.number));
}
