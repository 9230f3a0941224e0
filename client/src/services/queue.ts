import type { QueueStatus } from '@showtix/shared-types';
import { request } from './http';
import { readJson, write } from './storage';
import type { IdType } from './attendees';
import { isUnreachable } from './errors';

/** Body of POST .../queue/join: real-name sessions queue one ID per place. */
export interface QueueJoin {
  idType?: IdType;
  idNumber?: string;
}

const queuePath = (sessionId: string) => `/api/v1/sessions/${encodeURIComponent(sessionId)}/queue`;

/** Joining is idempotent on the server: the same account (or ID) gets the same place back. */
export function joinQueue(sessionId: string, join: QueueJoin): Promise<QueueStatus> {
  return request<QueueStatus>(`${queuePath(sessionId)}/join`, {
    method: 'POST',
    body: join,
    auth: true,
    waitOut429: false,
  });
}

export function queueStatus(sessionId: string): Promise<QueueStatus> {
  return request<QueueStatus>(queuePath(sessionId), { auth: true, waitOut429: false });
}

/**
 * What this phone remembers of a session's waiting room (one storage key per session), so the
 * queue page keeps its place across app restarts: it joins again with the same body and the
 * server answers the same place.
 */
export interface QueueEntry {
  sessionId: string;
  showId?: string;
  join: QueueJoin;
  joinedAt: number;
  /** The last state the server told. */
  state?: QueueStatus['state'];
  /** People ahead at the first answer in line, for the progress bar. */
  firstAhead?: number;
  admissionToken?: string;
  admissionExpiresAt?: string;
  /** A token that has bought its order (or was refused): it buys once. */
  usedToken?: string;
  /** The order this turn bought: a turn that ends after it is 已下单, not 时间已用完. */
  orderNo?: string;
}

const entryKey = (sessionId: string) => `showtix.queue.${sessionId}`;

export function loadEntry(sessionId: string): QueueEntry | undefined {
  const e = readJson<QueueEntry>(entryKey(sessionId));
  return e && e.sessionId === sessionId ? e : undefined;
}

export function saveEntry(e: QueueEntry): void {
  write(entryKey(e.sessionId), JSON.stringify(e));
}

export interface Admission {
  token: string;
  expiresAt: string;
}

/** The admission to buy with now: not expired and not used up. */
export function currentAdmission(sessionId: string, nowMs = Date.now()): Admission | undefined {
  const e = loadEntry(sessionId);
  if (!e?.admissionToken || !e.admissionExpiresAt) return undefined;
  if (e.admissionToken === e.usedToken) return undefined;
  if (new Date(e.admissionExpiresAt).getTime() <= nowMs) return undefined;
  return { token: e.admissionToken, expiresAt: e.admissionExpiresAt };
}

/**
 * The token bought an order (`orderNo`), or the server refused it (QUEUE_REQUIRED): never send
 * it again.
 */
export function markAdmissionUsed(sessionId: string, token?: string, orderNo?: string): void {
  const e = loadEntry(sessionId);
  if (!e?.admissionToken || (token && e.admissionToken !== token)) return;
  saveEntry({ ...e, usedToken: e.admissionToken, ...(orderNo ? { orderNo } : {}) });
}

/** Slowest poll while waiting on a network that does not answer. */
const BACKOFF_MAX_MS = 30_000;

/**
 * When to ask again after a failed poll, or undefined when asking again cannot help. Never sooner
 * than the server's last pollAfterMs; a 429 waits its Retry-After; network trouble backs off
 * exponentially (with up to 20% jitter, so fans who lost the network together do not return
 * together).
 */
export function retryDelayMs(
  err: { code: string; retryAfterMs?: number },
  lastPollAfterMs: number,
  failures: number,
  random: () => number = Math.random,
): number | undefined {
  if (err.code === 'RATE_LIMITED') return Math.max(err.retryAfterMs ?? 5_000, lastPollAfterMs);
  if (isUnreachable(err.code)) {
    const base = Math.min(BACKOFF_MAX_MS, 2_000 * 2 ** Math.max(0, failures - 1));
    return Math.max(lastPollAfterMs, Math.round(base * (1 + 0.2 * random())));
  }
  return undefined;
}

/** "约 3 分钟", "不到 1 分钟", "约 1 小时 20 分钟". */
export function etaText(seconds: number | null): string {
  if (seconds === null) return '计算中';
  if (seconds < 60) return '不到 1 分钟';
  const m = Math.round(seconds / 60);
  if (m < 60) return `约 ${m} 分钟`;
  return `约 ${Math.floor(m / 60)} 小时 ${m % 60} 分钟`;
}

/** How far the line has moved since the fan's first answer in it (0..1). */
export function queueProgress(ahead: number | null, firstAhead: number | undefined): number {
  if (ahead === null || !firstAhead) return ahead === 0 ? 1 : 0;
  return Math.max(0, Math.min(1, 1 - ahead / firstAhead));
}
