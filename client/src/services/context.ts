import type { SessionInfo, ShowDetail } from '@showtix/shared-types';
import { getSession, getShow } from './catalog';

/**
 * Orders and tickets name only their session; pages show the show's title, time and venue.
 * One lookup per session per minute, shared by every card of a list.
 */
export interface SessionContext {
  session: SessionInfo;
  show: ShowDetail;
}

const TTL_MS = 60_000;
const cache = new Map<string, { at: number; value: Promise<SessionContext> }>();

export function sessionContext(sessionId: string): Promise<SessionContext> {
  const hit = cache.get(sessionId);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
  const value = (async () => {
    const session = await getSession(sessionId);
    return { session, show: await getShow(session.showId) };
  })();
  cache.set(sessionId, { at: Date.now(), value });
  value.catch(() => cache.delete(sessionId));
  return value;
}

export function clearSessionContext(): void {
  cache.clear();
}
