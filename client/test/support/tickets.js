/**
 * Signed ticket QR codes for tests, made with node:crypto only (independent of the app's and
 * the server's code): Ed25519 over "STX2.<payload>", the rotating 6-digit code as HMAC-SHA256 of
 * the 20-second window under the ticket's code key (see shared-types/src/ticket-code.ts).
 */
const crypto = require('node:crypto');

const STEP_MS = 20_000;
const b64url = (buf) => Buffer.from(buf).toString('base64url');

function keyPair(kid = 'k1') {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'jwk' }).x; // base64url of the 32-byte key
  return { kid, privateKey, publicB64: raw };
}

function windowCode(codeKey, window) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(window));
  const mac = crypto.createHmac('sha256', Buffer.from(codeKey, 'base64url')).update(counter).digest();
  const off = mac[mac.length - 1] & 0x0f;
  const bin = ((mac[off] & 0x7f) << 24) | (mac[off + 1] << 16) | (mac[off + 2] << 8) | mac[off + 3];
  return String(bin % 1_000_000).padStart(6, '0');
}

/** One ticket: its number, code key and the signed part of its QR. */
function ticket(keys, ticketNo, sessionId) {
  const payload = b64url(JSON.stringify({ t: ticketNo, s: sessionId, k: keys.kid }));
  const signed = `STX2.${payload}`;
  const sig = b64url(crypto.sign(null, Buffer.from(signed), keys.privateKey));
  const codeKey = b64url(crypto.randomBytes(32));
  return { ticketNo, codeKey, qrSigned: `${signed}.${sig}` };
}

/** The QR a fan's phone shows at nowMs. */
function qrAt(t, nowMs) {
  return `${t.qrSigned}.${windowCode(t.codeKey, Math.floor(nowMs / STEP_MS))}`;
}

/** GET /api/v1/staff/sessions/:id/offline-bundle for these tickets. */
function bundle(keys, sessionId, tickets, revoked = [], extra = {}) {
  return {
    sessionId,
    generatedAt: new Date().toISOString(),
    keys: { [keys.kid]: keys.publicB64 },
    tickets: Object.fromEntries(
      tickets.map((t) => [
        t.ticketNo,
        { codeKey: t.codeKey, seat: 'A区 1排1座', ...(extra[t.ticketNo] ?? {}) },
      ]),
    ),
    revoked,
  };
}

module.exports = { STEP_MS, keyPair, ticket, qrAt, windowCode, bundle };
