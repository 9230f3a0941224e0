// The FIFO-bounded Map of the verified tokens and the waiting fans' places (server/src/bounded-map.ts)
// at its bound: CPU µs per new key on a full Map, with setBounded as built and with a reference
// that drops one entry per new key (what setBounded did until 2026-12-06), in rounds of 50,000
// keys after filling. V8 keeps a deleted entry's slot until it rebuilds the table, so the
// reference walks more slots on every key until the next rebuild. Keys are token-sized strings.
// Usage: npm run build -w server && node bench/bounded-map.mjs [--max 200000 --rounds 4]
import { dist, parseArgs } from './lib.mjs';

const { setBounded } = dist('bounded-map.js');
const args = parseArgs(process.argv.slice(2));
const MAX = Number(args.max ?? 200_000);
const ROUNDS = Number(args.rounds ?? 4);
const PER_ROUND = 50_000;

/** The reference: one oldest entry dropped per new key at the bound. */
function setDroppingOne(map, key, value, max) {
  if (map.size >= max && !map.has(key)) map.delete(map.keys().next().value);
  map.set(key, value);
}

function measure(set) {
  let n = 0;
  const key = () => `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${n++}.${'x'.repeat(150)}`;
  const map = new Map();
  for (let i = 0; i < MAX; i++) set(map, key(), i, MAX);
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const keys = Array.from({ length: PER_ROUND }, key);
    const cpu = process.cpuUsage();
    for (const k of keys) set(map, k, r, MAX);
    const { user, system } = process.cpuUsage(cpu);
    rounds.push(Number(((user + system) / PER_ROUND).toFixed(2)));
  }
  return rounds;
}

const result = {
  bench: 'bounded-map',
  max: MAX,
  keys_per_round: PER_ROUND,
  us_per_new_key_at_bound: measure(setBounded),
  us_per_new_key_dropping_one: measure(setDroppingOne),
};
console.log(JSON.stringify(result));
