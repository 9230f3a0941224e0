#!/usr/bin/env node
/**
 * What compressing a seat map's layout costs (node bench/seatmap/compress.mjs, after `npm run
 * build -w server`): the seat-map benchmark's 10,000-seat venue (client/test/harness/seed.mjs)
 * serialised as the server serves it (catalog/layout-asset.ts layoutOf), then compressed by
 * brotli at each quality and gzip at levels 6 and 9: bytes and CPU ms (median of --runs, 3).
 * An instance compresses a layout on the first request for its bytes, which waits for it
 * (compressLayout), so this is what that request and the instance pay. Last line: one JSON object.
 */
import { brotliCompressSync, gzipSync, constants as z } from 'node:zlib';
import { parseArgs } from 'node:util';
import { bigVenueSeats } from '../../client/test/harness/seed.mjs';
import { dist } from '../lib.mjs';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Number(args.runs);
const { layoutOf } = dist('catalog/layout-asset.js');

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

function cpuMs(fn) {
  const times = [];
  let out;
  for (let i = 0; i < RUNS; i++) {
    const t = process.cpuUsage();
    out = fn();
    const u = process.cpuUsage(t);
    times.push((u.user + u.system) / 1000);
  }
  times.sort((a, b) => a - b);
  return { bytes: out.length, cpu_ms: Math.round(times[Math.floor(RUNS / 2)] * 10) / 10 };
}

const json = Buffer.from(JSON.stringify({ ...layoutOf(bigCatalog()), version: 'x'.repeat(16) }));
const brotli = {};
for (let q = 4; q <= 11; q++) {
  const params = {
    [z.BROTLI_PARAM_MODE]: z.BROTLI_MODE_TEXT,
    [z.BROTLI_PARAM_QUALITY]: q,
    [z.BROTLI_PARAM_SIZE_HINT]: json.length,
  };
  brotli[q] = cpuMs(() => brotliCompressSync(json, { params }));
  console.log(`brotli ${q}: ${brotli[q].bytes} B, ${brotli[q].cpu_ms} ms`);
}
const gzip = {};
for (const level of [6, 9]) {
  gzip[level] = cpuMs(() => gzipSync(json, { level }));
  console.log(`gzip ${level}: ${gzip[level].bytes} B, ${gzip[level].cpu_ms} ms`);
}
console.log(JSON.stringify({ bench: 'seatmap-compress', json_bytes: json.length, runs: RUNS, brotli, gzip }));
