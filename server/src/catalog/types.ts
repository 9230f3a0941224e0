import type { SeatPosition, Seating, SessionStatus, Tier } from '@showtix/shared-types';

/** CANCELLED: the organiser cancelled it (session-changes/); it never sells again. */
export const SESSION_STATUS = { PRESALE: 1, ON_SALE: 2, SOLD_OUT: 3, ENDED: 4, CANCELLED: 5 } as const;

export const SESSION_STATUS_NAME: Record<number, SessionStatus> = {
  1: 'presale',
  2: 'on_sale',
  3: 'sold_out',
  4: 'ended',
  5: 'cancelled',
};

export interface CatalogSeat extends SeatPosition {
  tierId: string;
  priceFen: number;
}

export interface CatalogZone {
  id: string;
  name: string;
  tierId: string;
  capacity: number;
  priceFen: number;
}

/** Everything about a session that the purchase path reads, loaded from MySQL and cached. */
export interface SessionCatalog {
  id: string;
  showId: string;
  startsAt: Date;
  saleStartsAt: Date;
  status: number;
  purchaseLimit: number;
  holdMinutes: number;
  realName: boolean;
  queueEnabled: boolean;
  /** Fans admitted per minute by the waiting room (null: the configured default). */
  queueRatePerMin: number | null;
  seating: Seating;
  tiers: Tier[];
  seats: Map<string, CatalogSeat>;
  zones: Map<string, CatalogZone>;
  /** Seats plus every zone's capacity. */
  capacity: number;
  /** Per-user limit across all sessions of the show, if the show has one. */
  showPurchaseLimit: number | null;
  /**
   * Price tiers with fans on their waiting list (waitlist/): their returned units are offered
   * to the line first, so a direct purchase of them is refused. Cached with the catalog and
   * invalidated on every instance when the set changes, so the purchase pays no round trip.
   */
  waitlistedTiers: ReadonlySet<string>;
}
