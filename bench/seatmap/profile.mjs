#!/usr/bin/env node
/**
 * What the seat map's first draw is made of (node bench/seatmap/profile.mjs): the same stack,
 * seed and browser as run.mjs, then per run the page's own timings (navigation, every request's
 * start and end, first contentful paint, window.__seatmapDrawnAt) and, with PROFILE_CPU=1, a
 * CDP CPU profile of the page summarised as self time per script and per function. Uses the
 * existing builds (run.mjs rebuilds them). The last line printed is one JSON object.
 */
import { ensureH5Built, ensureServerBuilt } from '../../client/test/harness/build.mjs';
import { openStage, phonePage } from './stage.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CPU = process.env.PROFILE_CPU === '1';
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const r1 = (x) => Math.round(x);

/** Self time per function and per script of a CDP CPU profile, biggest first. */
function summarise(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const n = byId.get(profile.samples[i]);
    const ms = (dt[i + 1] ?? 0) / 1000;
    const f = n.callFrame;
    const file = f.url.split('/').pop() || '(native)';
    const key = `${f.functionName || '(anon)'} ${file}:${f.lineNumber}:${f.columnNumber}`;
    self.set(key, (self.get(key) ?? 0) + ms);
    self.set(`[script] ${file}`, (self.get(`[script] ${file}`) ?? 0) + ms);
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 40)
    .map(([k, v]) => `${v.toFixed(1).padStart(7)} ${k}`);
}

async function oneRun(browser, url) {
  const { context, page } = await phonePage(browser);
  const cdp = CPU ? await context.newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  await page.goto(url);
  await page.waitForFunction(() => typeof window.__seatmapDrawnAt === 'number', null, { timeout: 60_000 });
  const t = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return {
      drawnAt: window.__seatmapDrawnAt,
      fcp: fcp?.startTime,
      html: nav.responseEnd,
      navSteps: [
        'fetchStart',
        'connectStart',
        'requestStart',
        'responseStart',
        'responseEnd',
        'domInteractive',
      ]
        .map((k) => `${k} ${Math.round(nav[k])}`)
        .join('  '),
      domContentLoaded: nav.domContentLoadedEventEnd,
      load: nav.loadEventEnd,
      marks: performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]),
      requests: performance.getEntriesByType('resource').map((e) => ({
        name: e.name.replace(/^https?:\/\/[^/]+/, '').slice(0, 90),
        start: e.startTime,
        end: e.responseEnd,
        bytes: e.transferSize,
      })),
    };
  });
  const cpu = cdp ? summarise((await cdp.send('Profiler.stop')).profile) : undefined;
  await context.close();
  return { ...t, cpu };
}

async function main() {
  ensureServerBuilt();
  ensureH5Built();
  const { browser, url, close } = await openStage('prof');
  try {
    await oneRun(browser, url); // warm-up, as in run.mjs
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await oneRun(browser, url));
    const mid = runs.find((r) => r.drawnAt === median(runs.map((x) => x.drawnAt)));
    console.log(`runs: ${runs.map((r) => r1(r.drawnAt)).join(', ')}; median run:`);
    console.log(
      `  html ${r1(mid.html)}  DCL ${r1(mid.domContentLoaded)}  FCP ${r1(mid.fcp ?? -1)}  load ${r1(mid.load)}  drawn ${r1(mid.drawnAt)}`,
    );
    console.log(`  ${mid.navSteps}`);
    for (const m of mid.marks) console.log(`  mark ${m[0]} ${r1(m[1])}`);
    for (const q of mid.requests.sort((a, b) => a.start - b.start))
      console.log(
        `  ${String(r1(q.start)).padStart(5)} -> ${String(r1(q.end)).padStart(5)} ${String(q.bytes).padStart(7)} B ${q.name}`,
      );
    if (mid.cpu) console.log(mid.cpu.map((l) => `  ${l}`).join('\n'));
    console.log(JSON.stringify({ drawn: runs.map((r) => r1(r.drawnAt)), median: r1(mid.drawnAt) }));
  } finally {
    await close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
