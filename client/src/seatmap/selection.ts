import { AVAILABLE, HELD, type SeatModel } from './model';

export type ToggleResult =
  { ok: true; selected: number[] } | { ok: false; reason: 'unavailable' | 'limit'; message: string };

/**
 * Selection rules: a selected seat toggles off; an available seat toggles on while the fan is
 * under the purchase limit; held and sold seats cannot be picked.
 */
export function toggleSeat(
  m: SeatModel,
  selected: readonly number[],
  seat: number,
  limit: number,
): ToggleResult {
  if (selected.includes(seat)) return { ok: true, selected: selected.filter((s) => s !== seat) };
  if (m.state[seat] !== AVAILABLE) {
    const message =
      m.state[seat] === HELD ? '该座位已被锁定，请选择其他座位' : '该座位已售出，请选择其他座位';
    return { ok: false, reason: 'unavailable', message };
  }
  if (selected.length >= limit) return { ok: false, reason: 'limit', message: `本场每单限购 ${limit} 张` };
  return { ok: true, selected: [...selected, seat] };
}

/** Running total of the selection in fen (integer sum of tier prices). */
export function selectionTotalFen(m: SeatModel, selected: readonly number[]): number {
  let total = 0;
  for (const s of selected) total += m.tiers[m.tierOf[s]!]!.priceFen;
  return total;
}
