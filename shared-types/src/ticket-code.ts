import { ed25519 } from '@noble/curves/ed25519';
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha256';
import { b64urlToBytes, bytesToB64url, fromBase45, toBase45 } from './ticket-code-bytes';

/**
 * Device-bound ticket codes, version 3 (server, the fan's wallet and the staff scanner, online
 * and offline, all use this file):
 *
 *   STX3:<base45 of binding | step | device signature>
 *
 * binding   version 3, key id, ticket number (packed, 12 bytes), session id, binding id, valid-until
 *           (unix seconds), the device's Ed25519 public key, and the server's Ed25519 signature
 *           over all of that: "this device holds this ticket". Fixed until the ticket is re-bound.
 * step      the 20-second window the code is for (uint32).
 * signature the device's Ed25519 signature over "showtix-code" | binding | step, made on the
 *           phone with a private key that never leaves it.
 *
 * A verifier needs public keys only (the server's, by key id; the device's is in the signed
 * binding), so nothing a scanner or an offline bundle holds can make a code, and a screenshot
 * stops working after its window (one step either side is accepted for clock skew). Base45 keeps
 * the text in the QR alphanumeric mode: about 290 characters, QR version 10 at level M.
 *
 * Not exported from the package index: it needs TextEncoder, which WeChat's JS engine lacks,
 * so importers opt in with '@showtix/shared-types/dist/ticket-code' (and a polyfill there).
 */
export const CODE_PREFIX = 'STX3:';
export const CODE_STEP_MS = 20_000;
export const CODE_SKEW_STEPS = 1;
const VERSION = 3;
const TICKET_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const CODE_DOMAIN = new TextEncoder().encode('showtix-code');
const MANUAL_DOMAIN = 'showtix-manual:';

export { b64urlToBytes, bytesToB64url };

export interface Binding {
  kid: string;
  ticketNo: string;
  sessionId: string;
  bindingId: string;
  /** unix seconds */
  validUntil: number;
  devicePub: Uint8Array;
}

export interface ParsedCode {
  binding: Binding;
  /** The binding's bytes without the server's signature (what the server signed). */
  unsigned: Uint8Array;
  serverSig: Uint8Array;
  step: number;
  /** What the device signed. */
  message: Uint8Array;
  deviceSig: Uint8Array;
}

const stepOf = (ms: number) => Math.floor(ms / CODE_STEP_MS);

function varint(n: number, out: number[]): void {
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

function u32(n: number, out: number[]): void {
  out.push((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

/** T + 19 characters of a 32-letter alphabet: 95 bits in 12 bytes. */
function packTicketNo(t: string, out: number[]): void {
  let acc = 0;
  let bits = 0;
  const bytes: number[] = [];
  for (const ch of t.slice(1)) {
    acc = (acc << 5) | TICKET_ALPHABET.indexOf(ch);
    bits += 5;
    while (bits >= 8) {
      bits -= 8;
      bytes.push((acc >>> bits) & 0xff);
    }
    acc &= (1 << bits) - 1;
  }
  bytes.push((acc << (8 - bits)) & 0xff);
  out.push(...bytes);
}

class Reader {
  i = 0;
  constructor(readonly b: Uint8Array) {}
  byte(): number {
    if (this.i >= this.b.length) throw new Error('short');
    return this.b[this.i++]!;
  }
  take(n: number): Uint8Array {
    if (this.i + n > this.b.length) throw new Error('short');
    return this.b.subarray(this.i, (this.i += n));
  }
  varint(): number {
    let n = 0;
    let mul = 1;
    for (let k = 0; k < 8; k++) {
      const c = this.byte();
      n += (c & 0x7f) * mul;
      if (c < 0x80) return n;
      mul *= 0x80;
    }
    throw new Error('varint');
  }
  u32(): number {
    const b = this.take(4);
    return ((b[0]! << 24) >>> 0) + (b[1]! << 16) + (b[2]! << 8) + b[3]!;
  }
  ticketNo(): string {
    const b = this.take(12);
    let s = 'T';
    let acc = 0;
    let bits = 0;
    for (const x of b) {
      acc = (acc << 8) | x;
      bits += 8;
      while (bits >= 5 && s.length < 20) {
        bits -= 5;
        s += TICKET_ALPHABET[(acc >>> bits) & 31];
      }
      acc &= (1 << bits) - 1;
    }
    return s;
  }
}

/** The binding's bytes the server signs (the server appends its 64-byte signature). */
export function encodeBinding(b: Binding): Uint8Array {
  if (!/^T[2-9A-HJ-NP-Z]{19}$/.test(b.ticketNo)) throw new Error('ticket number');
  if (b.devicePub.length !== 32) throw new Error('device key');
  const out: number[] = [VERSION, b.kid.length];
  for (const ch of b.kid) out.push(ch.charCodeAt(0) & 0x7f);
  packTicketNo(b.ticketNo, out);
  varint(Number(b.sessionId), out);
  varint(Number(b.bindingId), out);
  u32(b.validUntil, out);
  out.push(...b.devicePub);
  return new Uint8Array(out);
}

function readBinding(r: Reader): { binding: Binding; unsigned: Uint8Array; serverSig: Uint8Array } {
  const start = r.i;
  if (r.byte() !== VERSION) throw new Error('version');
  const kid = String.fromCharCode(...r.take(r.byte()));
  const ticketNo = r.ticketNo();
  const sessionId = String(r.varint());
  const bindingId = String(r.varint());
  const validUntil = r.u32();
  const devicePub = r.take(32);
  const unsigned = r.b.subarray(start, r.i);
  const serverSig = r.take(64);
  return { binding: { kid, ticketNo, sessionId, bindingId, validUntil, devicePub }, unsigned, serverSig };
}

/** A signed binding as the server hands it out (base64url): readable by anyone, forges nothing. */
export function parseBinding(b64: string): Binding | undefined {
  try {
    const r = new Reader(b64urlToBytes(b64));
    const { binding } = readBinding(r);
    return r.i === r.b.length ? binding : undefined;
  } catch {
    return undefined;
  }
}

function codeMessage(signedBinding: Uint8Array, step: number): Uint8Array {
  const tail: number[] = [];
  u32(step, tail);
  const m = new Uint8Array(CODE_DOMAIN.length + signedBinding.length + 4);
  m.set(CODE_DOMAIN, 0);
  m.set(signedBinding, CODE_DOMAIN.length);
  m.set(tail, CODE_DOMAIN.length + signedBinding.length);
  return m;
}

/** What the fan's phone shows now (works offline): its binding plus its signature over the step. */
export function makeCode(signedBindingB64: string, devicePriv: Uint8Array, nowMs: number): string {
  const signed = b64urlToBytes(signedBindingB64);
  const message = codeMessage(signed, stepOf(nowMs));
  const sig = ed25519.sign(message, devicePriv);
  const all = new Uint8Array(signed.length + 4 + 64);
  all.set(message.subarray(CODE_DOMAIN.length), 0);
  all.set(sig, signed.length + 4);
  return CODE_PREFIX + toBase45(all);
}

export function parseCode(text: string): ParsedCode | undefined {
  const t = text.trim();
  if (!t.startsWith(CODE_PREFIX) || t.length > 600) return undefined;
  try {
    const r = new Reader(fromBase45(t.slice(CODE_PREFIX.length)));
    const b = readBinding(r);
    const signedEnd = r.i;
    const step = r.u32();
    const deviceSig = r.take(64);
    if (r.i !== r.b.length) return undefined;
    const message = codeMessage(r.b.subarray(0, signedEnd), step);
    return { ...b, step, message, deviceSig };
  } catch {
    return undefined;
  }
}

export type CodeProblem = 'code expired' | 'binding expired' | 'signature' | 'device signature';

/** An Ed25519 verification: the pure-JS one here (phones), or the server's native one. */
export type Ed25519Verify = (sig: Uint8Array, msg: Uint8Array, pub: Uint8Array) => boolean;

export const nobleVerify: Ed25519Verify = (sig, msg, pub) => {
  try {
    return ed25519.verify(sig, msg, pub);
  } catch {
    return false;
  }
};

/**
 * Checks a code with public keys only: its step is `atMs`'s (±1 for clock skew), its binding is
 * signed by the server's key and still valid, and the bound device signed the step. Cheap
 * checks first. undefined: the code is good.
 */
export function checkCode(
  p: ParsedCode,
  serverKey: Uint8Array | undefined,
  atMs: number,
  verify: Ed25519Verify = nobleVerify,
): CodeProblem | undefined {
  if (Math.abs(p.step - stepOf(atMs)) > CODE_SKEW_STEPS) return 'code expired';
  if (p.binding.validUntil * 1000 < atMs) return 'binding expired';
  if (!serverKey || !verify(p.serverSig, p.unsigned, serverKey)) return 'signature';
  if (!verify(p.deviceSig, p.message, p.binding.devicePub)) return 'device signature';
  return undefined;
}

/** A fresh device key pair from 32 random bytes (the caller's source of randomness). */
export function deviceKeyFromSeed(seed: Uint8Array): { priv: Uint8Array; pub: Uint8Array } {
  return { priv: seed, pub: ed25519.getPublicKey(seed) };
}

/**
 * The key behind the holder's spoken code (manual entry when the QR cannot be read): a hash of the
 * device's signature over the ticket number, so only the bound device can derive it. The device
 * gives it to the server once, when it binds; the server never hands it out.
 */
export function manualKeyOf(devicePriv: Uint8Array, ticketNo: string): string {
  return bytesToB64url(sha256(ed25519.sign(new TextEncoder().encode(MANUAL_DOMAIN + ticketNo), devicePriv)));
}

/** Six digits the holder reads aloud for the current step (the wallet shows them under the QR). */
export function manualDigits(manualKey: string, nowMs: number): string {
  return manualDigitsAt(manualKey, stepOf(nowMs));
}

export function manualDigitsAt(manualKey: string, step: number): string {
  const counter: number[] = [];
  u32(step, counter);
  const mac = hmac(sha256, b64urlToBytes(manualKey), new Uint8Array(counter));
  const off = mac[mac.length - 1]! & 0x0f;
  const bin = ((mac[off]! & 0x7f) << 24) | (mac[off + 1]! << 16) | (mac[off + 2]! << 8) | mac[off + 3]!;
  return String(bin % 1_000_000).padStart(6, '0');
}

/** Keyed hash of a ticket number: how an offline bundle names tickets without listing their numbers. */
export function ticketHash(hashKey: string, ticketNo: string): string {
  return bytesToB64url(
    hmac(sha256, b64urlToBytes(hashKey), new TextEncoder().encode(ticketNo)).subarray(0, 16),
  );
}

/**
 * A session's offline bundle for a staff device. No secrets: public keys, keyed hashes of ticket
 * numbers, the revocation lists and an expiry; it verifies codes of its own session only.
 */
export interface OfflineBundle {
  v: 3;
  sessionId: string;
  generatedAt: string;
  /** After this the bundle admits nothing: download a new one. */
  expiresAt: string;
  /** Sent back with the scans made offline (POST /api/v1/checkin/sync): the bundle's session and window. */
  token: string;
  /** key id -> the server's Ed25519 public key (base64url, 32 bytes) */
  keys: Record<string, string>;
  /** The key of ticketHash for this session. */
  hashKey: string;
  /** ticketHash -> what the attendant sees */
  tickets: Record<string, { seat: string; attendee?: { name: string; idNumber: string } }>;
  /** ticketHash of tickets refunded, voided or being refunded: never admit */
  revoked: string[];
  /** Bindings replaced by a re-bind (the old phone): never admit their codes */
  revokedBindings: string[];
}

export type OfflineVerdict =
  | { result: 'admitted'; ticketId: string; seat: string; attendee?: { name: string; idNumber: string } }
  | { result: 'already_used'; ticketId: string }
  | { result: 'refunded'; ticketId: string }
  | { result: 'invalid'; reason: string; ticketId?: string };

/**
 * Offline check on the staff device: the bundle current, the code good (checkCode), this session,
 * the ticket in the bundle and not revoked, its binding not revoked, and not already admitted here.
 */
export function verifyOffline(
  bundle: OfflineBundle,
  qr: string,
  nowMs: number,
  admittedHere: ReadonlySet<string>,
): OfflineVerdict {
  const p = parseCode(qr);
  if (!p) return { result: 'invalid', reason: qr.startsWith('STX2.') ? 'outdated code' : 'unreadable' };
  if (nowMs > Date.parse(bundle.expiresAt)) return { result: 'invalid', reason: 'bundle expired' };
  const ticketId = p.binding.ticketNo;
  if (p.binding.sessionId !== bundle.sessionId)
    return { result: 'invalid', reason: 'other session', ticketId };
  const key = bundle.keys[p.binding.kid];
  const problem = checkCode(p, key ? b64urlToBytes(key) : undefined, nowMs);
  if (problem) return { result: 'invalid', reason: problem, ticketId };
  const h = ticketHash(bundle.hashKey, ticketId);
  if (bundle.revoked.includes(h)) return { result: 'refunded', ticketId };
  const t = bundle.tickets[h];
  if (!t) return { result: 'invalid', reason: 'unknown ticket', ticketId };
  if (bundle.revokedBindings.includes(p.binding.bindingId))
    return { result: 'invalid', reason: 'binding revoked', ticketId };
  if (admittedHere.has(ticketId)) return { result: 'already_used', ticketId };
  return { result: 'admitted', ticketId, seat: t.seat, ...(t.attendee ? { attendee: t.attendee } : {}) };
}
