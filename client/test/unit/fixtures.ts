import type { SeatMap, SeatMapSeat, SessionInfo, Tier } from '@showtix/shared-types';

export const TIERS: Tier[] = [
  { id: 't1', name: 'VIP', priceFen: 188_000, color: '#e4393c' },
  { id: 't2', name: '看台', priceFen: 68_050 },
];

/** A 4 x 10 block: row 1 is VIP, the rest 看台; seat ids s1..s40 in row order. */
export function seatMap(overrides: Partial<Record<string, SeatMapSeat['state']>> = {}): SeatMap {
  const seats: SeatMapSeat[] = [];
  for (let r = 0; r < 4; r++) {
    for (let n = 0; n < 10; n++) {
      const id = `s${r * 10 + n + 1}`;
      seats.push({
        id,
        section: 'A区',
        row: String(r + 1),
        number: String(n + 1),
        x: n * 10,
        y: r * 12,
        tierId: r === 0 ? 't1' : 't2',
        state: overrides[id] ?? 'available',
      });
    }
  }
  return { sessionId: '7', seating: 'reserved', tiers: TIERS, seats, zones: [] };
}

export const SESSION: SessionInfo = {
  id: '7',
  showId: '3',
  startsAt: '2027-01-15T11:30:00.000Z',
  saleStartsAt: '2026-11-01T02:00:00.000Z',
  status: 'on_sale',
  seating: 'reserved',
  purchaseLimit: 2,
  realName: true,
  queueEnabled: false,
  holdMinutes: 15,
  tiers: TIERS,
};
