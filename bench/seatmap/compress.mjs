#!/usr/bin/env node
/**
 * What compressing a seat map's layout costs (node bench/seatmap/compress.mjs [--runs 3], after
 * `npm run build -w server`): the seat-map benchmark's 10,000-seat venue
 * (client/test/harness/seed.mjs) serialised as the server serves it (catalog/layout-asset.ts
 * layoutOf), then compressed by the server's own LAYOUT_COMPRESSION (libuv's thread pool, as in
 * the server) with brotli at each quality and gzip: bytes and CPU ms of the whole process
 * (median of the runs). An instance compresses a layout on the first request for its bytes,
 * which waits for the quick quality (LayoutAssets.get), so this is what that request and the
 * instance pay. Last line: one JSON object.
 */
import { bigVenueSeats } from '../../client/test/harness/seed.mjs';
import { dist, percentile, scenarioArgs } from '../lib.mjs';

const { num } = scenarioArgs();
const RUNS = num('runs', 3);
const { layoutOf, LAYOUT_COMPRESSION } = dist('catalog/layout-asset.js');

/** A catalog as the server holds it: ids as MySQL would give them, one tier per section. */
function bigCatalog() {
  const sections = [];
  const seats = new Map();
  let id = 100_000;
  for (const s of bigVenueSeats()) {
    if (!sections.includes(s.section)) sections.push(s.section);
    const seat = { ...s, id: String(++id), tierId: String(10 + sections.indexOf(s.section)) };
    seats.set(seat.id, seat);
  }
  const tiers = sections.map((name, i) => ({ id: String(10 + i), name, priceFen: 38_000 + i * 10_000 }));
  return { id: '4242', seating: 'reserved', tiers, seats, zones: new Map() };
}

/** Bytes and CPU ms (median of RUNS) of one compression. */
async function cpuMs(compress) {
  const times = [];
  let out;
  for (let i = 0; i < RUNS; i++) {
    const t = process.cpuUsage();
    out = await compress();
    const u = process.cpuUsage(t);
    times.push((u.user + u.system) / 1000);
  }
  const median = percentile(
    times.sort((a, b) => a - b),
    50,
  );
  return { bytes: out.length, cpu_ms: Math.round(median * 10) / 10 };
}

const json = Buffer.from(JSON.stringify({ ...layoutOf(bigCatalog()), version: 'x'.repeat(16) }));
const brotli = {};
for (let q = 4; q <= 11; q++) {
  brotli[q] = await cpuMs(() => LAYOUT_COMPRESSION.brotli(json, q));
  console.log(`brotli ${q}: ${brotli[q].bytes} B, ${brotli[q].cpu_ms} ms`);
}
const gzip = await cpuMs(() => LAYOUT_COMPRESSION.gzip(json));
console.log(`gzip: ${gzip.bytes} B, ${gzip.cpu_ms} ms`);
console.log(JSON.stringify({ bench: 'seatmap-compress', json_bytes: json.length, runs: RUNS, brotli, gzip }));
