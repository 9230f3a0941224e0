#!/usr/bin/env node
/**
 * Seat-map benchmark (npm run bench:seatmap): a 10,000-seat session on the real server (own
 * MySQL database and Redis key prefix, dropped at the end), the H5 build in headless Chromium on
 * a phone-sized viewport.
 *   first_draw_ms  navigation start -> all seats drawn (window.__seatmapDrawnAt), fresh browser
 *                  context per run (no cache), median of RUNS after one warm-up
 *   code_bytes_first_draw  the page's scripts and styles as they came over the wire (headers
 *                  included) by the first draw: the build's brotli copies (scripts/precompress.mjs)
 *   first_draw_phone_net_ms  the same on a phone's network (PHONE_NET, emulated by Chromium),
 *                  median of RUNS: what the bytes and round trips cost, which localhost hides
 *   chromium_cpu_ms_per_draw  the CPU each kind of Chromium process (browser, renderer, gpu,
 *                  utility, top-chrome-webui...) used from opening the context to the draw,
 *                  mean of the runs: the page's renderer does the map's work; the rest is the
 *                  browser's own, competing with it and the server for the machine's cores
 *   tap_ms         tap (pointer-up event time) -> the animation frame after the redraw that
 *                  shows the seat selected (window.__seatmapSelectFrameAt), median of TAPS;
 *                  tap_redrawn_ms is the part until the canvas holds the new picture
 *   layout_bytes_compressed  the layout (GET .../layout?v=<version>) as sent to a client that
 *                  accepts brotli, after the draws; layout_bytes_gzip and layout_bytes_json beside it
 *   idle_poll_bytes  one seat-states poll when nothing changed (?since=<current version>): the
 *                  whole HTTP response, status line + headers + body (idle_poll_body_bytes: body)
 *   cold_states_ms, cold_layout_ms  the fresh instance's first full list of seat states, then its
 *                  first layout (brotli accepted), before anything else asked for the session;
 *                  cold_layout_bytes  that first layout's bytes (brotli's quick quality)
 * Targets: first draw <= 1,000 ms, tap <= 100 ms, layout <= 150,000 bytes compressed, idle poll
 * <= 1,000 bytes. Byte counts do not depend on machine load; timings do. The last line printed
 * is one JSON object.
 */
import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureH5Built, ensureServerBuilt } from '../../client/test/harness/build.mjs';
import { ROOT } from '../../client/test/harness/paths.mjs';
import { settle } from '../../client/test/harness/browser.mjs';
import { openStage, phonePage } from './stage.mjs';
import { chromiumCpu, cpuSince } from '../../client/test/harness/procs.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TAPS = Number(process.env.BENCH_TAPS ?? 12);
/**
 * A phone's network for first_draw_phone_net_ms (Chromium's emulation through CDP): 100 ms added
 * to each request's answer, 1.5 MB/s down and 0.75 MB/s up.
 */
const PHONE_NET = { offline: false, latency: 100, downloadThroughput: 1.5e6, uploadThroughput: 0.75e6 };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x) => Math.round(x * 10) / 10;

async function openMap(browser, url, network) {
  const before = chromiumCpu();
  const { context, page } = await phonePage(browser);
  if (network) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', network);
  }
  await page.goto(url);
  await page.waitForFunction(() => typeof window.__seatmapDrawnAt === 'number', null, { timeout: 60_000 });
  const [drawnAt, codeBytes] = await page.evaluate(() => [
    window.__seatmapDrawnAt,
    performance
      .getEntriesByType('resource')
      .filter((e) => /\.(js|css)$/.test(new URL(e.name).pathname))
      .reduce((sum, e) => sum + e.transferSize, 0),
  ]);
  return { context, page, drawnAt, codeBytes, cpuMs: cpuSince(before) };
}

/** The mean CPU ms per first draw of each kind of Chromium process, over the runs. */
function meanByKind(runs) {
  const sum = {};
  for (const r of runs) for (const [k, v] of Object.entries(r)) sum[k] = (sum[k] ?? 0) + v;
  return Object.fromEntries(Object.entries(sum).map(([k, v]) => [k, Math.round(v / runs.length)]));
}

async function measureTaps(page, n) {
  await settle(page); // fonts, the page transition and late text in place before tapping
  // Seats too dense for a finger zoom in on the first tap: measure picks at the zoom it gives.
  if (await page.evaluate(() => window.__seatmap.dense())) {
    const box = await page.locator('.seat-canvas__canvas').boundingBox();
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction(() => !window.__seatmap.dense());
    await settle(page);
  }
  const seats = await page.evaluate(() => window.__seatmap.freeSeats(20000));
  const times = [];
  const draws = [];
  // Alternate select / deselect of spread-out seats, so the selection stays under the limit.
  for (let i = 0; i < n; i++) {
    const s = seats[Math.floor((i >> 1) * (seats.length / (n / 2 + 1))) + 7];
    const p = await page.evaluate((index) => window.__seatmap.seatPoint(index), s.index);
    const before = await page.evaluate(() => window.__seatmapSelectFrameAt ?? 0);
    await page.touchscreen.tap(p.x, p.y);
    await page
      .waitForFunction((b) => (window.__seatmapSelectFrameAt ?? 0) > b, before, { timeout: 10_000 })
      .catch(async (e) => {
        const hit = await page.evaluate(([x, y]) => window.__seatmap.seatAt(x, y), [p.x, p.y]);
        throw new Error(
          `tap ${i} on seat ${s.index} at ${p.x},${p.y} (seat there now: ${hit}) was not drawn: ${e.message}`,
        );
      });
    const [frame, drawn] = await page.evaluate(() => [
      window.__seatmapSelectFrameAt - window.__seatmapTapAt,
      window.__seatmapSelectDrawnAt - window.__seatmapTapAt,
    ]);
    times.push(frame);
    draws.push(drawn);
  }
  return { times, draws, seatsOnScreen: seats.length };
}

/** A GET as bytes on the wire (no automatic decompression): body and header sizes. */
function wireGet(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        let head = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n`.length + 2;
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          head += res.rawHeaders[i].length + res.rawHeaders[i + 1].length + 4;
        resolve({ status: res.statusCode, headers: res.headers, body, headBytes: head });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The instance's first answers for the session, as a fan meets an instance that has just joined
 * a sale: a full list of seat states (which names the layout's version) and then the layout.
 * Both load the session's catalog if no request has; the layout also compresses its bytes, at
 * brotli's quick quality (cold_layout_bytes), the best following in the background.
 */
async function measureCold(apiUrl, sessionId) {
  const base = `${apiUrl}/api/v1/sessions/${sessionId}`;
  const timed = async (url, headers) => {
    const t0 = performance.now();
    const r = await wireGet(url, headers);
    if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
    return { ms: round(performance.now() - t0), bytes: r.body.length };
  };
  const states = await timed(`${base}/seat-states`);
  const layout = await timed(`${base}/layout`, { 'accept-encoding': 'gzip, deflate, br' });
  return { cold_states_ms: states.ms, cold_layout_ms: layout.ms, cold_layout_bytes: layout.bytes };
}

async function measureBytes(apiUrl, sessionId) {
  const base = `${apiUrl}/api/v1/sessions/${sessionId}`;
  const plain = await wireGet(`${base}/layout`);
  const version = JSON.parse(plain.body.toString()).version;
  const br = await wireGet(`${base}/layout?v=${version}`, { 'accept-encoding': 'gzip, deflate, br' });
  const gz = await wireGet(`${base}/layout?v=${version}`, { 'accept-encoding': 'gzip' });
  if (br.headers['content-encoding'] !== 'br' || gz.headers['content-encoding'] !== 'gzip')
    throw new Error('layout not served compressed');
  const full = await wireGet(`${base}/seat-states`);
  const statesVersion = JSON.parse(full.body.toString()).version;
  const idle = await wireGet(`${base}/seat-states?since=${statesVersion}`);
  if (JSON.parse(idle.body.toString()).full !== false) throw new Error('idle poll was not a delta');
  return {
    layout_bytes_compressed: br.body.length,
    layout_bytes_gzip: gz.body.length,
    layout_bytes_json: plain.body.length,
    layout_cache_control: br.headers['cache-control'],
    full_states_bytes: full.headBytes + full.body.length,
    idle_poll_bytes: idle.headBytes + idle.body.length,
    idle_poll_body_bytes: idle.body.length,
  };
}

async function main() {
  ensureServerBuilt({ force: true });
  ensureH5Built();
  const { stack, seeded, url, browser, close } = await openStage('bench');
  try {
    const cold = await measureCold(stack.apiUrl, seeded.sessionId);
    const warm = await openMap(browser, url); // fills the server's catalog cache, JITs the server
    await warm.context.close();
    const draws = [];
    const cpus = [];
    let codeBytes;
    let tapResult;
    for (let r = 0; r < RUNS; r++) {
      const run = await openMap(browser, url);
      draws.push(run.drawnAt);
      cpus.push(run.cpuMs);
      if (r === 0) codeBytes = run.codeBytes; // the same files every run
      if (r === RUNS - 1) tapResult = await measureTaps(run.page, TAPS);
      await run.context.close();
    }
    const slow = [];
    for (let r = 0; r < RUNS; r++) {
      const run = await openMap(browser, url, PHONE_NET);
      slow.push(run.drawnAt);
      await run.context.close();
    }
    // After the draws (seconds): the layout's best compression has replaced the quick one.
    const bytes = await measureBytes(stack.apiUrl, seeded.sessionId);
    const result = {
      bench: 'seatmap',
      date: new Date().toISOString(),
      seats: seeded.seatCount,
      seats_drawn_on_screen: tapResult.seatsOnScreen,
      first_draw_ms: round(median(draws)),
      first_draw_runs_ms: draws.map(round),
      chromium_cpu_ms_per_draw: meanByKind(cpus),
      first_draw_phone_net_ms: round(median(slow)),
      first_draw_phone_net_runs_ms: slow.map(round),
      phone_net: PHONE_NET,
      code_bytes_first_draw: codeBytes,
      tap_ms: round(median(tapResult.times)),
      tap_max_ms: round(Math.max(...tapResult.times)),
      tap_runs_ms: tapResult.times.map(round),
      tap_redrawn_ms: round(median(tapResult.draws)),
      ...bytes,
      ...cold,
      target_first_draw_ms: 1000,
      target_tap_ms: 100,
      target_layout_bytes_compressed: 150_000,
      target_idle_poll_bytes: 1000,
      viewport: '390x844@2x, touch',
      browser: `chromium ${browser.version()}`,
    };
    const dir = path.join(ROOT, 'bench/results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, `seatmap-${result.date.replace(/[:.]/g, '-')}.json`),
      JSON.stringify(result, null, 2) + '\n',
    );
    console.log(
      `seats ${result.seats}: first draw ${result.first_draw_ms} ms (runs ${draws.map(Math.round).join(', ')}; Chromium CPU ms per draw ${JSON.stringify(result.chromium_cpu_ms_per_draw)}), on a phone's network ${result.first_draw_phone_net_ms} ms, code ${result.code_bytes_first_draw} B, tap ${result.tap_ms} ms (max ${result.tap_max_ms}), layout ${bytes.layout_bytes_compressed} B br (${bytes.layout_bytes_json} B JSON), idle poll ${bytes.idle_poll_bytes} B; a fresh instance: seat states ${cold.cold_states_ms} ms, then the layout ${cold.cold_layout_ms} ms`,
    );
    console.log(JSON.stringify(result));
  } finally {
    await close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
