import { toApiError } from './errors';
import {
  checkin,
  offlineBundle,
  syncCheckins,
  type CheckinAnswer,
  type CheckinResult,
  type ManualInput,
  type SyncItem,
} from './staff';
import { readJson, remove, write } from './storage';
import { verifyOffline, type OfflineBundle, type OfflineVerdict } from './ticket-code';

/**
 * The gate desk of a staff phone: scans go to POST /api/v1/checkin while there is a network;
 * without one they are checked against the session's offline bundle (public keys only: the
 * server's binding and the fan's device signature, hashed ticket list, revocation lists),
 * admitted, and queued with the code as scanned until POST /api/v1/checkin/sync takes them.
 * Manual entry (a typed number and a second factor) needs the server.
 */

/** What the result screen shows for one scan. */
export interface ScanView {
  result: CheckinResult;
  /** Checked on this phone without the server. */
  offline: boolean;
  ticketId?: string;
  seat?: string;
  attendee?: { name: string; idNumber: string };
  usedAt?: string;
  usedGate?: string;
  usedBy?: string;
  reason?: string;
  gateCount?: number;
}

/** One check-in of this phone, kept per session (refuses a second use while offline). */
export interface AdmittedHere {
  at: string;
  gate: string;
  offline: boolean;
}

export interface PendingCheckin extends SyncItem {
  sessionId: string;
  gate: string;
  /** The token of the bundle it was checked with. */
  bundle: string;
}

export interface SyncReport {
  at: string;
  sent: number;
  admitted: number;
  conflicts: { ticketNo: string; result: CheckinResult }[];
}

const PREFIX = 'showtix.gate';
const bundleKey = (sessionId: string) => `${PREFIX}.bundle.${sessionId}`;
const admittedKey = (sessionId: string) => `${PREFIX}.admitted.${sessionId}`;
const PENDING_KEY = `${PREFIX}.pending`;
/** Tickets per storage key: WeChat allows 1 MB per key (about 150 bytes a ticket). */
const CHUNK = 1500;

interface BundleHead extends Omit<OfflineBundle, 'tickets'> {
  chunks: number;
  count: number;
}

function tryWrite(key: string, value: unknown): boolean {
  try {
    write(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

/** Stores a bundle in chunks; false when storage is full (it then lives in memory only). */
export function saveBundle(b: OfflineBundle): boolean {
  const entries = Object.entries(b.tickets);
  const chunks = Math.ceil(entries.length / CHUNK);
  const { tickets: _tickets, ...rest } = b;
  for (let i = 0; i < chunks; i++) {
    const part = Object.fromEntries(entries.slice(i * CHUNK, (i + 1) * CHUNK));
    if (!tryWrite(`${bundleKey(b.sessionId)}.${i}`, part)) return false;
  }
  const old = readJson<BundleHead>(bundleKey(b.sessionId));
  for (let i = chunks; i < (old?.chunks ?? 0); i++) remove(`${bundleKey(b.sessionId)}.${i}`);
  return tryWrite(bundleKey(b.sessionId), { ...rest, chunks, count: entries.length } satisfies BundleHead);
}

export function loadBundle(sessionId: string): OfflineBundle | undefined {
  const head = readJson<BundleHead>(bundleKey(sessionId));
  if (!head || head.sessionId !== sessionId) return undefined;
  const tickets: OfflineBundle['tickets'] = {};
  for (let i = 0; i < head.chunks; i++) {
    const part = readJson<OfflineBundle['tickets']>(`${bundleKey(sessionId)}.${i}`);
    if (!part) return undefined;
    Object.assign(tickets, part);
  }
  const { chunks: _c, count: _n, ...rest } = head;
  return { ...rest, tickets };
}

export function admittedHere(sessionId: string): Record<string, AdmittedHere> {
  return readJson<Record<string, AdmittedHere>>(admittedKey(sessionId)) ?? {};
}

function noteAdmitted(sessionId: string, ticketNo: string, a: AdmittedHere): void {
  tryWrite(admittedKey(sessionId), { ...admittedHere(sessionId), [ticketNo]: a });
}

export function pendingCheckins(): PendingCheckin[] {
  return readJson<PendingCheckin[]>(PENDING_KEY) ?? [];
}

function enqueue(p: PendingCheckin): void {
  tryWrite(PENDING_KEY, [...pendingCheckins(), p]);
}

const same = (a: SyncItem, b: SyncItem) => a.ticketNo === b.ticketNo && a.scannedAt === b.scannedAt;

function dropPending(done: SyncItem[]): void {
  const left = pendingCheckins().filter((p) => !done.some((d) => same(d, p)));
  if (left.length) tryWrite(PENDING_KEY, left);
  else remove(PENDING_KEY);
}

export function fromAnswer(a: CheckinAnswer): ScanView {
  return {
    result: a.result,
    offline: false,
    ticketId: a.ticketId,
    seat: a.seat,
    attendee: a.attendee,
    usedAt: a.usedAt,
    usedGate: a.gate,
    usedBy: a.usedBy,
    reason: a.reason,
    gateCount: a.gateCount,
  };
}

function fromVerdict(v: OfflineVerdict, here: Record<string, AdmittedHere>): ScanView {
  if (v.result === 'invalid')
    return { result: 'invalid', offline: true, reason: v.reason, ticketId: v.ticketId };
  if (v.result === 'admitted')
    return { result: 'admitted', offline: true, ticketId: v.ticketId, seat: v.seat, attendee: v.attendee };
  const prior = here[v.ticketId];
  return {
    result: v.result,
    offline: true,
    ticketId: v.ticketId,
    ...(prior ? { usedAt: prior.at, usedGate: prior.gate, usedBy: '本机' } : {}),
  };
}

export type ScanInput = { qr: string } | ManualInput;

/** Checks one scan without the server; an admission is remembered and queued for the sync. */
export function scanOffline(bundle: OfflineBundle, input: ScanInput, gate: string, nowMs: number): ScanView {
  if (!('qr' in input)) return { result: 'invalid', offline: true, reason: 'needs network' };
  const here = admittedHere(bundle.sessionId);
  const verdict = verifyOffline(bundle, input.qr, nowMs, new Set(Object.keys(here)));
  const view = fromVerdict(verdict, here);
  if (verdict.result === 'admitted') {
    const at = new Date(nowMs).toISOString();
    noteAdmitted(bundle.sessionId, verdict.ticketId, { at, gate, offline: true });
    const { sessionId, token } = bundle;
    enqueue({
      sessionId,
      gate,
      bundle: token,
      ticketNo: verdict.ticketId,
      scannedAt: at,
      code: input.qr.trim(),
    });
  }
  return view;
}

/**
 * One scan: online first (the server's word: first scan wins across gates); when the request
 * cannot reach the server, the offline check. Other errors (not assigned, logged out) throw.
 */
export async function scanTicket(opts: {
  input: ScanInput;
  gate: string;
  sessionId: string;
  online: boolean;
  bundle: OfflineBundle | undefined;
  nowMs: () => number;
}): Promise<ScanView> {
  const { input, gate, sessionId, bundle } = opts;
  if (opts.online) {
    try {
      const a = await checkin(input, gate, sessionId);
      if (a.result === 'admitted' && a.ticketId)
        noteAdmitted(sessionId, a.ticketId, {
          at: new Date(opts.nowMs()).toISOString(),
          gate,
          offline: false,
        });
      return fromAnswer(a);
    } catch (err) {
      if (toApiError(err).code !== 'NETWORK' || !bundle) throw err;
    }
  }
  if (!bundle) throw toApiError(new Error('offline without a bundle'));
  return scanOffline(bundle, input, gate, opts.nowMs());
}

/** Downloads the session's bundle and keeps it; answers it with whether it was stored. */
export async function refreshBundle(sessionId: string): Promise<{ bundle: OfflineBundle; stored: boolean }> {
  const bundle = await offlineBundle(sessionId);
  return { bundle, stored: saveBundle(bundle) };
}

/**
 * Sends the queued offline check-ins, gate by gate. What the server answered leaves the queue
 * (conflicts included: they are recorded for the admin page); a failed request keeps its items
 * and throws after the others were tried.
 */
export async function syncPending(nowMs: number): Promise<SyncReport | undefined> {
  const pending = pendingCheckins();
  if (!pending.length) return undefined;
  // One request per gate, session and bundle (the server checks each batch against its bundle).
  const byGate = new Map<string, PendingCheckin[]>();
  for (const p of pending) {
    const k = `${p.gate}\n${p.sessionId}\n${p.bundle}`;
    byGate.set(k, [...(byGate.get(k) ?? []), p]);
  }
  const report: SyncReport = { at: new Date(nowMs).toISOString(), sent: 0, admitted: 0, conflicts: [] };
  let failure: unknown;
  for (const items of byGate.values()) {
    const { gate, sessionId, bundle } = items[0]!;
    const batch = items.map((p) => ({ ticketNo: p.ticketNo, scannedAt: p.scannedAt, code: p.code }));
    try {
      const results = await syncCheckins(gate, sessionId, bundle, batch);
      dropPending(batch);
      report.sent += batch.length;
      for (const r of results) {
        if (r.result === 'admitted') report.admitted++;
        else report.conflicts.push(r);
      }
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure && report.sent === 0) throw failure;
  return report;
}
