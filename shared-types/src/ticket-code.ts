import { ed25519 } from '@noble/curves/ed25519';
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha256';

/**
 * The ticket QR code, version 2 (used by the server, the fan's ticket page and the staff
 * scanner, online and offline):
 *
 *   STX2.<payload>.<signature>.<code>
 *
 * payload   base64url JSON {t: ticket number, s: session id, k: key id} — fixed for the ticket
 * signature base64url Ed25519 signature by the server's key `k` over "STX2.<payload>"
 * code      6 digits, HMAC-SHA256 of the current 20-second window under the ticket's own code
 *           key: it changes on screen, so a screenshot stops working within seconds.
 *
 * Only the current window and one either side (clock skew) are accepted.
 *
 * Not exported from the package index: it needs TextEncoder, which WeChat's JS engine lacks,
 * so importers opt in with '@showtix/shared-types/dist/ticket-code' (and a polyfill there).
 */
export const QR_PREFIX = 'STX2';
export const CODE_STEP_MS = 20_000;
export const CODE_SKEW_STEPS = 1;

export interface QrPayload {
  t: string;
  s: string;
  k: string;
}

export interface ParsedQr {
  signed: string;
  payload: QrPayload;
  signature: Uint8Array;
  code: string;
}

function b64urlToBytes(s: string): Uint8Array {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4);
  // atob in browsers and (polyfilled) in the mini-program; Buffer in Node.
  const bin = typeof atob === 'function' ? atob(b64) : Buffer.from(b64, 'base64').toString('binary');
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const utf8 = (s: string) => new TextEncoder().encode(s);

/** The static, signed part of a ticket's QR ("STX2.<payload>.<signature>"), made by the server. */
export function parseQr(qr: string): ParsedQr | undefined {
  const m = /^STX2\.([\w-]{10,400})\.([\w-]{80,90})\.(\d{6})$/.exec(qr.trim());
  if (!m) return undefined;
  try {
    const payload = JSON.parse(new TextDecoder().decode(b64urlToBytes(m[1]!))) as QrPayload;
    if (typeof payload.t !== 'string' || typeof payload.s !== 'string' || typeof payload.k !== 'string')
      return undefined;
    return { signed: `${QR_PREFIX}.${m[1]}`, payload, signature: b64urlToBytes(m[2]!), code: m[3]! };
  } catch {
    return undefined;
  }
}

/** Six digits for a window of CODE_STEP_MS under a ticket's code key (base64url). */
export function windowCode(codeKey: string, window: number): string {
  const counter = new Uint8Array(8);
  let w = window;
  for (let i = 7; i >= 0; i--) {
    counter[i] = w & 0xff;
    w = Math.floor(w / 256);
  }
  const mac = hmac(sha256, b64urlToBytes(codeKey), counter);
  const off = mac[mac.length - 1]! & 0x0f;
  const bin = ((mac[off]! & 0x7f) << 24) | (mac[off + 1]! << 16) | (mac[off + 2]! << 8) | mac[off + 3]!;
  return String(bin % 1_000_000).padStart(6, '0');
}

/** What the fan's phone shows now: the signed part plus the current code (works offline). */
export function currentQr(signedQr: string, codeKey: string, nowMs: number): string {
  return `${signedQr}.${windowCode(codeKey, Math.floor(nowMs / CODE_STEP_MS))}`;
}

export function codeIsCurrent(codeKey: string, code: string, nowMs: number): boolean {
  const w = Math.floor(nowMs / CODE_STEP_MS);
  for (let d = -CODE_SKEW_STEPS; d <= CODE_SKEW_STEPS; d++)
    if (windowCode(codeKey, w + d) === code) return true;
  return false;
}

export function verifySignature(p: ParsedQr, publicKey: Uint8Array): boolean {
  try {
    return ed25519.verify(p.signature, utf8(p.signed), publicKey);
  } catch {
    return false;
  }
}

/** The session's ticket list for a staff device checking tickets without a network. */
export interface OfflineBundle {
  sessionId: string;
  generatedAt: string;
  /** After this the bundle admits nothing: download a new one. */
  expiresAt: string;
  /** Sent back with the scans made offline (POST /api/v1/checkin/sync): the bundle's session and window. */
  token: string;
  /** key id -> Ed25519 public key (base64url, 32 bytes) */
  keys: Record<string, string>;
  /** ticket number -> what checking it needs */
  tickets: Record<string, { codeKey: string; seat: string; attendee?: { name: string; idNumber: string } }>;
  /** tickets refunded or voided: never admit */
  revoked: string[];
}

export type OfflineVerdict =
  | { result: 'admitted'; ticketId: string; seat: string; attendee?: { name: string; idNumber: string } }
  | { result: 'already_used'; ticketId: string }
  | { result: 'refunded'; ticketId: string }
  | { result: 'invalid'; reason: string };

/**
 * Offline check on the staff device: signature by a known key, this session, the ticket in the
 * bundle and not revoked, the code current, and not already admitted on this device.
 */
export function verifyOffline(
  bundle: OfflineBundle,
  qr: string,
  nowMs: number,
  admittedHere: ReadonlySet<string>,
): OfflineVerdict {
  const p = parseQr(qr);
  if (!p) return { result: 'invalid', reason: 'unreadable' };
  if (nowMs > Date.parse(bundle.expiresAt)) return { result: 'invalid', reason: 'bundle expired' };
  const key = bundle.keys[p.payload.k];
  if (!key || !verifySignature(p, b64urlToBytes(key))) return { result: 'invalid', reason: 'signature' };
  if (p.payload.s !== bundle.sessionId) return { result: 'invalid', reason: 'other session' };
  if (bundle.revoked.includes(p.payload.t)) return { result: 'refunded', ticketId: p.payload.t };
  const t = bundle.tickets[p.payload.t];
  if (!t) return { result: 'invalid', reason: 'unknown ticket' };
  if (!codeIsCurrent(t.codeKey, p.code, nowMs)) return { result: 'invalid', reason: 'code expired' };
  if (admittedHere.has(p.payload.t)) return { result: 'already_used', ticketId: p.payload.t };
  return {
    result: 'admitted',
    ticketId: p.payload.t,
    seat: t.seat,
    ...(t.attendee ? { attendee: t.attendee } : {}),
  };
}
