import type { SeatLayout, SeatMap, SeatStates } from '@showtix/shared-types';

/** A seat map put together on the client, with the states version to poll deltas from. */
export type LoadedSeatMap = SeatMap & { statesVersion?: string };

/** The static layout (cached by version) plus a full list of live states: the whole map. */
export function composeSeatMap(layout: SeatLayout, s: SeatStates): LoadedSeatMap {
  const held = new Set(s.held);
  const sold = new Set(s.sold);
  const left = new Map(s.zones.map((z) => [z.id, z.available]));
  return {
    sessionId: layout.sessionId,
    seating: layout.seating,
    tiers: layout.tiers,
    layoutVersion: layout.version,
    statesVersion: s.version,
    seats: layout.seats.map((seat) => ({
      ...seat,
      state: sold.has(seat.id) ? 'sold' : held.has(seat.id) ? 'held' : 'available',
    })),
    zones: layout.zones.map((z) => ({ ...z, available: left.get(z.id) ?? z.capacity })),
  };
}
