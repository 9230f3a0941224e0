// Gate benchmark: how many device-bound ticket codes one CPU core verifies per second, on the
// server (node:crypto, what POST /api/v1/checkin runs) and with the shared pure-JS verifier a
// staff phone runs offline (verifyOffline over a 50,000-ticket bundle), against the budget of a
// 50,000-person stadium gate rush. Each verification is the full check: parse, step, the server's
// signature over the binding, the fan device's signature over the step (two Ed25519 verifies).
// Last line: one JSON object. Usage: npm run bench -- --scenario gate [--codes N --smoke]
import { createRequire } from 'node:module';
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import os from 'node:os';
import { parseArgs, root, saveResult } from '../lib.mjs';

const require = createRequire(import.meta.url);
const tc = require(`${root}/shared-types/dist/ticket-code.js`);
const { nativeVerify } = require(`${root}/server/dist/checkin/verify.js`);

const args = parseArgs(process.argv.slice(2));
const smoke = args.smoke === true;
const CODES = Number(args.codes ?? (smoke ? 300 : 3000));
const HOUSE = Number(args.house ?? 50_000);
/** The rush: the whole house through the gates in this many minutes, peaking at PEAK x the mean. */
const RUSH_MIN = Number(args['rush-minutes'] ?? 30);
const PEAK = Number(args.peak ?? 3);
/** A mid-range phone runs pure JS this many times slower than one server core (conservative). */
const PHONE_SLOWDOWN = Number(args['phone-slowdown'] ?? 5);

const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const ticketNo = (i) => {
  let s = '';
  for (let n = i; s.length < 19; n = Math.floor(n / 32)) s = ALPHABET[n % 32] + s;
  return `T${s}`;
};

// The server's key (by node:crypto, as TicketKeys) and one bound phone key per ticket.
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const serverPub = new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }).subarray(-32));
const now = Date.now();
const sessionId = '4242';
const hashKey = randomBytes(32).toString('base64url');
const bundle = {
  v: 3,
  sessionId,
  generatedAt: new Date(now).toISOString(),
  expiresAt: new Date(now + 12 * 3_600_000).toISOString(),
  token: 'bench',
  keys: { k1: Buffer.from(serverPub).toString('base64url') },
  hashKey,
  tickets: {},
  revoked: [],
  revokedBindings: Array.from({ length: 500 }, (_, i) => String(1_000_000 + i)),
};
for (let i = 0; i < HOUSE; i++) bundle.tickets[tc.ticketHash(hashKey, ticketNo(i))] = { seat: `A区 ${i}` };

const codes = [];
for (let i = 0; i < CODES; i++) {
  const dev = tc.deviceKeyFromSeed(new Uint8Array(randomBytes(32)));
  const unsigned = tc.encodeBinding({
    kid: 'k1',
    ticketNo: ticketNo(i),
    sessionId,
    bindingId: String(i + 1),
    validUntil: Math.floor(now / 1000) + 86_400,
    devicePub: dev.pub,
  });
  const sig = sign(null, unsigned, privateKey);
  const binding = Buffer.concat([Buffer.from(unsigned), sig]).toString('base64url');
  codes.push(tc.makeCode(binding, dev.priv, now));
}
const QRCode = require(`${root}/node_modules/qrcode/lib/core/qrcode.js`);
const qrVersion = QRCode.create(codes[0], { errorCorrectionLevel: 'M' }).version;

/**
 * Verifications per second of one core: over this process's CPU time (process.cpuUsage), not the
 * wall clock. Until 2026-12-06 it was the wall clock, which on a shared machine counts the time
 * other processes had the core (a saved run had a load average of 12.6 on 2 cores) and understated
 * the rate by up to that much.
 */
function rate(label, check) {
  for (let i = 0; i < Math.min(50, codes.length); i++) check(codes[i]); // warm up
  const cpu0 = process.cpuUsage();
  let ok = 0;
  for (const c of codes) if (check(c)) ok++;
  const { user, system } = process.cpuUsage(cpu0);
  if (ok !== codes.length) throw new Error(`${label}: ${codes.length - ok} good codes refused`);
  return codes.length / ((user + system) / 1e6);
}

const server = rate('server', (c) => {
  const p = tc.parseCode(c);
  return p && tc.checkCode(p, serverPub, now, nativeVerify) === undefined;
});
const staff = rate('staff device', (c) => tc.verifyOffline(bundle, c, now, new Set()).result === 'admitted');

const peakPerS = (HOUSE / (RUSH_MIN * 60)) * PEAK;
const result = {
  scenario: 'gate',
  codes: CODES,
  code_chars: codes[0].length,
  qr_version_m: qrVersion,
  server_verifies_per_s_per_core: Math.round(server),
  staff_verifier_verifies_per_s_per_core: Math.round(staff),
  staff_verifier_ms_per_scan: Number((1000 / staff).toFixed(2)),
  phone_ms_per_scan_estimate: Number(((1000 / staff) * PHONE_SLOWDOWN).toFixed(1)),
  house: HOUSE,
  rush_minutes: RUSH_MIN,
  peak_factor: PEAK,
  budget_peak_scans_per_s: Math.round(peakPerS),
  server_cores_for_peak: Number((peakPerS / server).toFixed(3)),
  server_headroom_x: Math.round(server / peakPerS),
  cpu: os.cpus()[0]?.model ?? 'unknown',
  /** The machine's load while measuring (shared machines: compare runs at similar load). */
  load_avg_1m: Number(os.loadavg()[0].toFixed(1)),
  cores: os.cpus().length,
};
if (!smoke) saveResult(result, new Date().toISOString());
console.log(
  `verify: server ${result.server_verifies_per_s_per_core}/s/core, shared verifier ${result.staff_verifier_verifies_per_s_per_core}/s/core ` +
    `(${result.staff_verifier_ms_per_scan} ms/scan here, ~${result.phone_ms_per_scan_estimate} ms on a phone); ` +
    `rush of ${HOUSE} in ${RUSH_MIN} min x${PEAK} peaks at ${result.budget_peak_scans_per_s}/s = ${result.server_cores_for_peak} server cores; ` +
    `code ${result.code_chars} chars, QR version ${qrVersion}-M`,
);
console.log(JSON.stringify(result));
