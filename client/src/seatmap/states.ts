import type { SeatStates, SeatStatesDelta } from '@showtix/shared-types';
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

/**
 * Applies a delta (only the seats that changed since the client's version) in place; seats it
 * does not name keep their state.
 */
export function applyDelta(
  m: SeatModel,
  d: Pick<SeatStatesDelta, 'held' | 'sold' | 'available'>,
  selected: readonly number[],
): StatesUpdate {
  let changed = false;
  const put = (ids: readonly string[], code: number) => {
    for (const id of ids) {
      const i = m.index.get(id);
      if (i === undefined || m.state[i] === code) continue;
      m.state[i] = code;
      changed = true;
    }
  };
  put(d.available, AVAILABLE);
  put(d.held, HELD);
  put(d.sold, SOLD);
  const lost = selected.filter((i) => m.state[i] !== AVAILABLE);
  return { changed, lost };
}
