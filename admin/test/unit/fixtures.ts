import type { AdminOrderDetail, VenueDetail } from '@showtix/shared-types';

/** A small venue: one row of seats in `section`, and the given standing zones. */
export function smallVenue(section: string, seats: number, zones: VenueDetail['zones'] = []): VenueDetail {
  return {
    id: '1',
    name: 'v',
    city: '',
    address: '',
    latitude: null,
    longitude: null,
    seatCount: seats,
    zoneCount: zones.length,
    sections: [section],
    sessionCount: 0,
    createdAt: '',
    seats: Array.from({ length: seats }, (_, i) => ({
      id: String(i + 1),
      section,
      row: '1',
      number: String(i + 1),
      x: i * 10,
      y: 0,
    })),
    zones,
  };
}

/** A ticketed order of one buyer, nothing refunded; tests give its number, amount and tickets. */
export function ticketedOrder(
  o: Pick<AdminOrderDetail, 'orderNo' | 'amountFen' | 'quantity' | 'tickets'> & Partial<AdminOrderDetail>,
): AdminOrderDetail {
  return {
    channel: 'miniprogram',
    status: 'ticketed',
    createdAt: '2026-12-01T08:00:00.000Z',
    paidAt: '2026-12-01T08:01:00.000Z',
    buyer: { userId: '7', nickname: null, openidMasked: 'oA***9' },
    showTitle: '测试演出',
    sessionId: '3',
    sessionStartsAt: '2026-12-31T12:00:00.000Z',
    contactPhone: null,
    attendees: [],
    expireAt: '2026-12-01T08:15:00.000Z',
    cancelledAt: null,
    cancelReason: null,
    items: [],
    payments: [],
    refunds: [],
    audit: [],
    ...o,
  };
}

/** One ¥680 ticket of such an order. */
export const orderTicket = (ticketNo: string, seatLabel: string, status = '有效') => ({
  ticketNo,
  status,
  seatLabel,
  priceFen: 68000,
  createdAt: '2026-12-01T08:00:00.000Z',
  bindings: [],
});
