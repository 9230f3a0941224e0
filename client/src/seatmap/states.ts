import type { SeatStates } from '@showtix/shared-types';
import { AVAILABLE, HELD, SOLD, type SeatModel } from './model';

export interface StatesUpdate {
  changed: boolean;
  /** Selected seats that someone else has taken since they were picked. */
  lost: number[];
}

/**
 * Applies a live snapshot in place: every seat not named held or sold is available again.
 * Only the state array changes, so the map is redrawn without being reloaded.
 */
export function applyStates(
  m: SeatModel,
  s: Pick<SeatStates, 'held' | 'sold'>,
  selected: readonly number[],
): StatesUpdate {
  const next = new Uint8Array(m.count);
  for (const id of s.held) {
    const i = m.index.get(id);
    if (i !== undefined) next[i] = HELD;
  }
  for (const id of s.sold) {
    const i = m.index.get(id);
    if (i !== undefined) next[i] = SOLD;
  }
  let changed = false;
  for (let i = 0; i < m.count; i++) {
    if (next[i] !== m.state[i]) {
      changed = true;
      break;
    }
  }
  if (changed) m.state.set(next);
  const lost = selected.filter((i) => m.state[i] !== AVAILABLE);
  return { changed, lost };
}
