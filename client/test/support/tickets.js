/**
 * Device-bound ticket codes for tests (see shared-types/src/ticket-code.ts): the server's key is
 * a node:crypto Ed25519 key (independent of the app), its signature over the binding made with
 * node:crypto; the fan's phone key and the code's layout come from the shared module.
 */
const crypto = require('node:crypto');
// The shared module needs a TextEncoder when it loads; jsdom test environments have none (the
// weapp tests take it away again before the app loads, which brings its own).
if (typeof globalThis.TextEncoder !== 'function') globalThis.TextEncoder = require('node:util').TextEncoder;
const tc = require('@showtix/shared-types/dist/ticket-code');

const STEP_MS = 20_000;
const b64url = (buf) => Buffer.from(buf).toString('base64url');

function keyPair(kid = 'k1') {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'jwk' }).x; // base64url of the 32-byte key
  return { kid, privateKey, publicB64: raw };
}

/** A fan's phone: its key seed as the wallet stores it ('showtix.ticketKey'). */
function device() {
  const seed = new Uint8Array(crypto.randomBytes(32));
  const k = tc.deviceKeyFromSeed(seed);
  return { seed: b64url(seed), priv: k.priv, pub: tc.bytesToB64url(k.pub) };
}

/** One ticket bound to `dev`: what GET /api/v1/tickets returns in its `binding`. */
function ticket(keys, ticketNo, sessionId, dev = device(), bindingId = '1') {
  const validUntil = 4_000_000_000;
  const unsigned = tc.encodeBinding({
    kid: keys.kid,
    ticketNo,
    sessionId,
    bindingId,
    validUntil,
    devicePub: tc.b64urlToBytes(dev.pub),
  });
  const sig = crypto.sign(null, Buffer.from(unsigned), keys.privateKey);
  const binding = b64url(Buffer.concat([Buffer.from(unsigned), sig]));
  return {
    ticketNo,
    device: dev,
    bindingId,
    binding: {
      bindingId,
      binding,
      devicePublicKey: dev.pub,
      validUntil: new Date(validUntil * 1000).toISOString(),
      boundAt: '2027-01-01T00:00:00.000Z',
      codeStepMs: STEP_MS,
    },
  };
}

/** The QR the fan's phone shows at nowMs. */
function qrAt(t, nowMs) {
  return tc.makeCode(t.binding.binding, t.device.priv, nowMs);
}

/** The six spoken digits the phone shows at nowMs. */
function spokenAt(t, nowMs) {
  return tc.manualDigits(tc.manualKeyOf(t.device.priv, t.ticketNo), nowMs);
}

/** GET /api/v1/staff/sessions/:id/offline-bundle for these tickets. */
function bundle(keys, sessionId, tickets, revoked = [], extra = {}, more = {}) {
  const hashKey = b64url(crypto.randomBytes(32));
  const h = (no) => tc.ticketHash(hashKey, no);
  return {
    v: 3,
    sessionId,
    generatedAt: new Date().toISOString(),
    expiresAt: '2099-01-01T00:00:00.000Z',
    token: `${sessionId}.1700000000000.4070908800000.${'x'.repeat(43)}`,
    keys: { [keys.kid]: keys.publicB64 },
    hashKey,
    tickets: Object.fromEntries(
      tickets.map((t) => [h(t.ticketNo), { seat: 'A区 1排1座', ...(extra[t.ticketNo] ?? {}) }]),
    ),
    revoked: revoked.map(h),
    revokedBindings: [],
    ...more,
  };
}

module.exports = { STEP_MS, keyPair, device, ticket, qrAt, spokenAt, bundle };
