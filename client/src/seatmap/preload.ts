import type { SessionInfo } from '@showtix/shared-types';
import { ROUTES } from '../routes';
import { getSeatMap, getSession } from '../services/catalog';
import type { LoadedSeatMap } from './compose';

/** What the seat-map page needs before it shows anything: the map and the session. */
export interface SeatMapLoad {
  map: LoadedSeatMap;
  session: SessionInfo;
}

/** A load started longer ago than this is not handed to a page: its states would be old. */
const FRESH_MS = 10_000;

let early: { sessionId: string; at: number; load: Promise<SeatMapLoad> } | undefined;

/** The map and the session, fetched together. */
export async function loadSeatMapPage(sessionId: string): Promise<SeatMapLoad> {
  const [map, session] = await Promise.all([getSeatMap(sessionId), getSession(sessionId)]);
  return { map, session };
}

/**
 * Starts the seat map's load before the page's code has arrived: on H5 the page's chunk is
 * fetched only once the app has started, and the page asks for data only after its first paint,
 * which together came to a third of the first draw of a 10,000-seat map.
 */
export function preloadSeatMap(sessionId: string): void {
  const load = loadSeatMapPage(sessionId);
  load.catch(() => undefined); // a failure reaches the page when it takes the load
  early = { sessionId, at: Date.now(), load };
}

/** The load started early for this session, handed out once; otherwise a new one. */
export function takeSeatMapLoad(sessionId: string): Promise<SeatMapLoad> {
  const e = early;
  early = undefined;
  if (e && e.sessionId === sessionId && Date.now() - e.at < FRESH_MS) return e.load;
  return loadSeatMapPage(sessionId);
}

/** The session of a seat-map link (H5 hash route `#/pages/seatmap/index?sessionId=…`), or "". */
export function seatMapLinkSession(hash: string): string {
  const prefix = `#${ROUTES.seatmap}?`;
  if (!hash.startsWith(prefix)) return '';
  return new URLSearchParams(hash.slice(prefix.length)).get('sessionId') ?? '';
}

/** H5: the app opened on a seat-map link starts that map's load at once. */
export function preloadFromLink(hash: string): void {
  const sessionId = seatMapLinkSession(hash);
  if (sessionId) preloadSeatMap(sessionId);
}
