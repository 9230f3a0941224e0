import { timingSafeEqual } from 'node:crypto';
import type { TicketKeys } from '../tickets/keys';

/** How long an offline bundle may be used after it is downloaded (a day's doors, with margin). */
export const BUNDLE_TTL_MS = 12 * 3_600_000;
/** Clock difference tolerated between a staff phone and the server when it syncs. */
export const SYNC_SKEW_MS = 60_000;

/** When a bundle, and so every offline scan made with it, is valid; bound to one session. */
export interface BundleWindow {
  sessionId: string;
  issuedAt: number;
  expiresAt: number;
}

/**
 * The bundle's token, sent back with the scans made offline: the server's keyed hash over the
 * session and the window, so a sync can only claim scans inside a window the server handed out
 * for that session (not "2020", not another session's bundle). Not a secret: it forges nothing.
 */
export function bundleToken(keys: TicketKeys, w: BundleWindow): string {
  const body = `${w.sessionId}.${w.issuedAt}.${w.expiresAt}`;
  return `${body}.${keys.mac('offline-bundle', body)}`;
}

export function readBundleToken(keys: TicketKeys, token: string): BundleWindow | undefined {
  const m = /^(\d{1,20})\.(\d{13})\.(\d{13})\.([\w-]{43})$/.exec(token);
  if (!m) return undefined;
  const body = `${m[1]}.${m[2]}.${m[3]}`;
  const want = Buffer.from(keys.mac('offline-bundle', body));
  if (!timingSafeEqual(want, Buffer.from(m[4]!))) return undefined;
  return { sessionId: m[1]!, issuedAt: Number(m[2]), expiresAt: Number(m[3]) };
}

/** An offline scan's time must lie in its bundle's window, and not in the future. */
export function inWindow(w: BundleWindow, at: Date, now: Date): boolean {
  const t = at.getTime();
  return t >= w.issuedAt - SYNC_SKEW_MS && t <= Math.min(w.expiresAt, now.getTime() + SYNC_SKEW_MS);
}
