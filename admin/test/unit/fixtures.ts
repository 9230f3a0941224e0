import type { VenueDetail } from '@showtix/shared-types';

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
