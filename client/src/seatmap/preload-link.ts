import { preloadSeatMap, seatMapLinkSession } from './preload';

/**
 * H5: the app opened on a seat-map link (a shared link, a reload) starts that map's load at once,
 * while the page's code is still on its way. The mini-program has no such link
 * (preload-link.weapp.ts).
 */
export function preloadFromLink(hash = window.location.hash): void {
  const sessionId = seatMapLinkSession(hash);
  if (sessionId) preloadSeatMap(sessionId);
}
