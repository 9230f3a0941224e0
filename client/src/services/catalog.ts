import type {
  SeatLayout,
  SeatStates,
  SeatStatesReply,
  SessionInfo,
  ShowDetail,
  ShowSummary,
} from '@showtix/shared-types';
import { composeSeatMap, type LoadedSeatMap } from '../seatmap/compose';
import { request } from './http';

/** Public catalog reads: no login needed, so a shared link opens without a WeChat round trip. */
export async function listShows(): Promise<ShowSummary[]> {
  return (await request<{ items: ShowSummary[] }>('/api/v1/shows')).items;
}

export function getShow(showId: string): Promise<ShowDetail> {
  return request<ShowDetail>(`/api/v1/shows/${encodeURIComponent(showId)}`);
}

export function getSession(sessionId: string): Promise<SessionInfo> {
  return request<SessionInfo>(`/api/v1/sessions/${encodeURIComponent(sessionId)}`);
}

/** The last layout seen per session: a map opened again loads only its states. */
const layouts = new Map<string, SeatLayout>();
const LAYOUTS_KEPT = 3;

/** The static layout; with its version the URL is cached for good (browser, CDN). */
export function getSeatLayout(sessionId: string, version?: string): Promise<SeatLayout> {
  const v = version ? `?v=${encodeURIComponent(version)}` : '';
  return request<SeatLayout>(`/api/v1/sessions/${encodeURIComponent(sessionId)}/layout${v}`);
}

/**
 * The seat map as layout plus states, fetched together. The layout is fetched once per
 * version: the full states name the current layout version, and only a changed one is fetched
 * again (by its versioned, immutable URL).
 */
export async function getSeatMap(sessionId: string): Promise<LoadedSeatMap> {
  const known = layouts.get(sessionId);
  const [first, states] = await Promise.all([
    known ? Promise.resolve(known) : getSeatLayout(sessionId),
    getSeatStates(sessionId),
  ]);
  const current = states.layoutVersion;
  const layout = current && current !== first.version ? await getSeatLayout(sessionId, current) : first;
  layouts.delete(sessionId);
  layouts.set(sessionId, layout);
  // A 10,000-seat layout is about a megabyte in memory: keep the last few sessions only.
  for (const old of layouts.keys()) if (layouts.size > LAYOUTS_KEPT) layouts.delete(old);
  return composeSeatMap(layout, states);
}

/**
 * Live states, polled while the seat map is open: with `since` (the version the client has)
 * only the seats that changed, or the full list when that version is unknown to the server.
 */
export function getSeatStates(sessionId: string): Promise<SeatStates>;
export function getSeatStates(
  sessionId: string,
  since: string | undefined,
): Promise<SeatStatesReply | SeatStates>;
export function getSeatStates(sessionId: string, since?: string): Promise<SeatStatesReply | SeatStates> {
  const q = since ? `?since=${encodeURIComponent(since)}` : '';
  return request<SeatStatesReply>(`/api/v1/sessions/${encodeURIComponent(sessionId)}/seat-states${q}`);
}
