import type { SessionInfo } from '@showtix/shared-types';
import { ROUTES, go, replace } from '../routes';
import { getSeatMap, getSession } from '../services/catalog';
import type { LoadedSeatMap } from './compose';
import { markStage } from './markers';
import { buildModel, type SeatModel } from './model';

/**
 * What the seat-map page needs before it shows anything: the map, the session and the drawing
 * model (null for a session without reserved seats).
 */
export interface SeatMapLoad {
  map: LoadedSeatMap;
  session: SessionInfo;
  model: SeatModel | null;
}

/** A load started longer ago than this is not handed to a page: its states would be old. */
const FRESH_MS = 10_000;

interface EarlyLoad {
  sessionId: string;
  at: number;
  load: Promise<SeatMapLoad>;
  /** The load's result once it is here. */
  done?: SeatMapLoad;
}

let early: EarlyLoad | undefined;

/**
 * The map and the session, fetched together, and the model built from the map: here rather
 * than in a render, so that a load started early builds it while the page's code downloads.
 */
export async function loadSeatMapPage(sessionId: string): Promise<SeatMapLoad> {
  const [map, session] = await Promise.all([getSeatMap(sessionId), getSession(sessionId)]);
  markStage('data');
  const model = map.seating === 'reserved' ? buildModel(map) : null;
  markStage('model');
  return { map, session, model };
}

/**
 * Starts the seat map's load before the page's code has arrived: on H5 the page's chunk is
 * fetched only once the app has started, and the page asks for data only after its first paint,
 * which together came to a third of the first draw of a 10,000-seat map. Started by a seat-map
 * link (preload-link.ts) and by every way into the page from the app (openSeatMap).
 */
export function preloadSeatMap(sessionId: string): void {
  const e: EarlyLoad = { sessionId, at: Date.now(), load: loadSeatMapPage(sessionId) };
  // A failure reaches the page when it takes the load.
  e.load.then((done) => void (e.done = done)).catch(() => undefined);
  early = e;
}

/**
 * Opens the seat-map page (a new page, or in place of this one) with its load already started:
 * the app's ways into the map (购票, the waiting room letting the fan in, 改签) go through here,
 * so none waits for the page's code and first paint before asking for the data.
 */
export function openSeatMap(
  params: { sessionId: string; showId: string } & Record<string, string>,
  how: 'go' | 'replace' = 'go',
): void {
  preloadSeatMap(params.sessionId);
  (how === 'go' ? go : replace)('seatmap', params);
}

function takeEarly(sessionId: string): EarlyLoad | undefined {
  const e = early;
  early = undefined;
  return e && e.sessionId === sessionId && Date.now() - e.at < FRESH_MS ? e : undefined;
}

/**
 * The early load's result if it is already here (handed out once): the page's first render then
 * shows the map instead of a loading state.
 */
export function takeLoadedSeatMap(sessionId: string): SeatMapLoad | undefined {
  if (!early?.done) return undefined;
  return takeEarly(sessionId)?.done;
}

/** The load started early for this session, handed out once; otherwise a new one. */
export function takeSeatMapLoad(sessionId: string): Promise<SeatMapLoad> {
  return takeEarly(sessionId)?.load ?? loadSeatMapPage(sessionId);
}

/** The session of a seat-map link (H5 hash route `#/pages/seatmap/index?sessionId=…`), or "". */
export function seatMapLinkSession(hash: string): string {
  const prefix = `#${ROUTES.seatmap}?`;
  if (!hash.startsWith(prefix)) return '';
  return new URLSearchParams(hash.slice(prefix.length)).get('sessionId') ?? '';
}
