import type { SeatMap, SeatStates, SessionInfo, ShowDetail, ShowSummary } from '@showtix/shared-types';
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

export function getSeatMap(sessionId: string): Promise<SeatMap> {
  return request<SeatMap>(`/api/v1/sessions/${encodeURIComponent(sessionId)}/seatmap`);
}

/** Compact live states, polled while the seat map is open. */
export function getSeatStates(sessionId: string): Promise<SeatStates> {
  return request<SeatStates>(`/api/v1/sessions/${encodeURIComponent(sessionId)}/seat-states`);
}
