import dayjs, { type Dayjs } from 'dayjs';
import type { AdminSessionDetail, AdminShowDetail, SeatMap, VenueDetail } from '@showtix/shared-types';
import { getSession } from '../../api/sessions';
import { getShow } from '../../api/shows';
import { getVenue } from '../../api/venues';
import { toTierSpecs, type TierState } from './tierModel';

export interface SessionFields {
  startsAt: Dayjs;
  saleStartsAt: Dayjs;
  holdMinutes: number;
  purchaseLimit: number;
  realName: boolean;
  queueEnabled: boolean;
  queueRatePerMin?: number | null;
}

export interface SessionLoaded {
  show: AdminShowDetail;
  venue: VenueDetail;
  session?: AdminSessionDetail;
}

export async function loadSession(
  showId: string | undefined,
  sessionId: string | undefined,
): Promise<SessionLoaded> {
  const session = sessionId ? await getSession(sessionId) : undefined;
  const show = await getShow(session?.showId ?? showId!);
  const venue = await getVenue(show.venueId);
  return { show, venue, session };
}

/** Form values for an existing session, or the defaults for a new one. */
export function initialFields(s: AdminSessionDetail | undefined): Partial<SessionFields> {
  return s
    ? { ...s, startsAt: dayjs(s.startsAt), saleStartsAt: dayjs(s.saleStartsAt) }
    : {
        startsAt: dayjs().add(30, 'day').hour(19).minute(30).second(0),
        saleStartsAt: dayjs().add(7, 'day').hour(12).minute(0).second(0),
        holdMinutes: 15,
        purchaseLimit: 4,
        realName: false,
        queueEnabled: false,
      };
}

/** Form values as the API body (the queue rate only counts while the queue is on). */
export function sessionBody(f: SessionFields) {
  return {
    startsAt: f.startsAt.toISOString(),
    saleStartsAt: f.saleStartsAt.toISOString(),
    holdMinutes: f.holdMinutes,
    purchaseLimit: f.purchaseLimit,
    realName: f.realName,
    queueEnabled: f.queueEnabled,
    queueRatePerMin: f.queueEnabled ? (f.queueRatePerMin ?? null) : null,
  };
}

/** Draft tiers as the fan's seat map (for the preview before the session exists). */
export function draftMap(venue: VenueDetail, tiers: TierState): SeatMap {
  const specs = toTierSpecs(tiers);
  const idOf = new Map(tiers.tiers.map((t, i) => [t.key, t.id ?? `draft${i}`]));
  return {
    sessionId: 'draft',
    seating: venue.seats.length ? 'reserved' : 'zone',
    tiers: tiers.tiers.map((t, i) => ({
      id: idOf.get(t.key)!,
      name: t.name,
      priceFen: specs[i]!.priceFen ?? 0,
      color: t.color,
    })),
    seats: venue.seats
      .filter((s) => tiers.seatTier.has(s.id))
      .map((s) => ({ ...s, tierId: idOf.get(tiers.seatTier.get(s.id)!)!, state: 'available' as const })),
    zones: tiers.tiers
      .filter((t) => t.zoneName)
      .map((t) => {
        const z = venue.zones.find((x) => x.name === t.zoneName)!;
        return {
          id: z.id,
          name: z.name,
          tierId: idOf.get(t.key)!,
          capacity: z.capacity,
          available: z.capacity,
        };
      }),
  };
}
