import type { QueueStatus } from '@showtix/shared-types';
import { loadEntry, saveEntry, type QueueEntry, type QueueJoin } from '../../services/queue';

/**
 * What the queue page shows: the server's states, plus `need_id` (a real-name session waits for
 * the fan's ID before joining), `used` (admitted, but this turn's token has bought its order),
 * `done` (the turn is over and it bought an order: not a turn that ran out) and `loading`.
 */
export type QueueView = QueueStatus['state'] | 'need_id' | 'used' | 'done' | 'loading';

/** States after which polling stops until the fan acts. */
export const STOP: ReadonlySet<QueueView> = new Set(['sold_out', 'expired', 'done', 'admitted']);

/** Merges a patch into this phone's saved entry for the session (created on first join). */
export function persistEntry(
  sessionId: string,
  showId: string | undefined,
  patch: Partial<QueueEntry>,
  join?: QueueJoin,
): QueueEntry {
  const base: QueueEntry = loadEntry(sessionId) ?? {
    sessionId,
    showId,
    join: join ?? {},
    joinedAt: Date.now(),
  };
  const next = { ...base, ...(join ? { join } : {}), ...patch };
  saveEntry(next);
  return next;
}

/** What a server answer changes in the saved entry: first place seen, the admission, or none. */
export function entryPatch(s: QueueStatus, prev: QueueEntry | undefined): Partial<QueueEntry> {
  const patch: Partial<QueueEntry> = { state: s.state };
  if (s.state === 'waiting' && s.ahead !== null && prev?.firstAhead === undefined)
    patch.firstAhead = Math.max(1, s.ahead);
  if (s.admitted && s.admissionToken) {
    patch.admissionToken = s.admissionToken;
    patch.admissionExpiresAt = s.admissionExpiresAt;
  }
  if (s.state === 'expired') {
    patch.firstAhead = undefined;
    patch.admissionToken = undefined;
    patch.admissionExpiresAt = undefined;
  }
  return patch;
}

/** The page's view of a server answer, given the entry saved with it. */
export function viewOf(s: QueueStatus, saved: QueueEntry): QueueView {
  if (!s.queueEnabled) return 'admitted';
  if (s.state === 'admitted' && saved.admissionToken === saved.usedToken) return 'used';
  if (s.state === 'expired' && saved.orderNo) return 'done';
  return s.state;
}

/**
 * First look, once the session is known: join again where this phone joined before (the
 * server answers the same place), show a finished turn as it ended, or ask for an ID.
 */
export function firstLook(
  e: QueueEntry | undefined,
  realName: boolean,
  nowMs = Date.now(),
): { view: QueueView } | { join: QueueJoin } {
  const over =
    e?.state === 'admitted' &&
    e.admissionExpiresAt !== undefined &&
    new Date(e.admissionExpiresAt).getTime() <= nowMs;
  // (A session sold out last time is asked again: returned tickets may have reopened it.)
  if (e && (e.state === 'expired' || over)) return { view: e.orderNo ? 'done' : 'expired' };
  if (e) return { join: e.join };
  if (realName) return { view: 'need_id' };
  return { join: {} };
}
