// The overload benchmark's purchases (bench/overload/run.mjs), offered from this process or from
// processes of their own (offerFromProcesses): one load generator with 1,000 connections timed
// its answers late by its own event loop's delay (p99 46 ms, max 130 ms, 2026-12-04), so
// the offer is shared among a few processes and each reports its loop's delay beside the samples.
import { execFileSync, fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { nowMs, pacedOffer } from './paced.mjs';

/**
 * Purchases in a fixed order over all buyers: this offerer's share is every `step`-th request
 * from `start` (tokens: that share's buyers, in order). Each call gives the next one's headers
 * and body.
 */
export function purchaseMaker(tour, tokens, tag, { start = 0, step = 1 } = {}) {
  let next = 0;
  return () => {
    const k = next++;
    const i = start + k * step;
    const s = tour[i % tour.length];
    const qty = 1 + (i % 2);
    // The seats by one slice of `qty` (slicing from the offset to the end first copied up to the
    // session's 10,000 ids per request: a fifth of an offering process's time went to its GC).
    const at = (i * 7) % (s.seatIds.length - 2);
    const body =
      i % 4 === 3
        ? { sessionId: s.id, zoneId: s.zoneId, quantity: qty }
        : { sessionId: s.id, seatIds: s.seatIds.slice(at, at + qty) };
    return {
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${tokens[k % tokens.length]}`,
        'idempotency-key': `overload-${tag}-${i}`,
      },
      body: JSON.stringify(body),
    };
  };
}

/**
 * autocannon's request of purchaseMaker's purchases. Each answer is noted as [latencyMs, status,
 * retryAfter, first, sentAt]; `first` (set by phase()): the connection's first answer, whose time
 * includes opening the connection.
 */
export function purchases(tour, tokens, tag, share) {
  const make = purchaseMaker(tour, tokens, tag, share);
  const samples = [];
  const request = {
    method: 'POST',
    path: '/api/v1/orders',
    setupRequest: (req, ctx) => {
      ctx.sentAt = nowMs();
      return { ...req, ...make() };
    },
    onResponse: (status, _body, ctx, headers) => {
      // Header names as the server wrote them ('Retry-After'): compared without case.
      const retryAfter = Object.keys(headers ?? {}).some((k) => k.toLowerCase() === 'retry-after');
      samples.push([nowMs() - ctx.sentAt, status, retryAfter, false, ctx.sentAt]);
    },
  };
  return { request, samples };
}

/** autocannon's run of purchases (closed loop, or overallRate's per-second quota per connection). */
async function cannonRun(url, tour, tokens, o, tag, share) {
  const p = purchases(tour, tokens, tag, share);
  const run = autocannon({ url, timeout: 10, requests: [p.request], ...o });
  // autocannon calls onResponse, then emits 'response' with the connection's client, at once: the
  // last sample is that client's answer. Its first answer is marked (ctx does not outlive a request).
  const answered = new WeakSet();
  run.on('response', (client) => {
    if (answered.has(client)) return;
    answered.add(client);
    p.samples[p.samples.length - 1][3] = true;
  });
  const res = await run;
  // autocannon counts a timeout (no answer within 10 s) among its errors too: counted once here.
  return {
    samples: p.samples,
    errors: res.errors,
    timeouts: res.timeouts,
    sendLateP99Ms: null,
    connectP99Ms: null,
    connectMaxMs: null,
  };
}

/** The paced offer (paced.mjs) of purchases: `o.overallRate` req/s as a crowd's arrivals, seeded by `o.seed`. */
function pacedRun(url, tour, tokens, o, tag, share = {}, ready = undefined) {
  return pacedOffer(url, {
    path: '/api/v1/orders',
    make: purchaseMaker(tour, tokens, tag, share),
    connections: o.connections,
    rate: o.overallRate,
    seconds: o.duration,
    seed: o.seed,
    lane: (share.start ?? 0) * o.connections,
    ready,
    client: o.client,
  });
}

/**
 * One run of purchases (`o`: autocannon's options; with `o.paced`, the paced offer's) from this
 * process; with its samples, this process's event-loop delay over the run (ms): an answer that
 * arrived while the loop was busy is timed late by up to that much, whatever the server did.
 * `ready`: the paced offer's start, once its connections are open (offer-child.mjs).
 */
export async function phase(url, tour, tokens, o, tag, share, ready) {
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  // Before autocannon starts: it builds each connection's first request (and its sentAt) at once.
  const startedAt = nowMs();
  let cpu0 = process.cpuUsage();
  const cannon = { ...o };
  delete cannon.paced;
  delete cannon.seed;
  delete cannon.client;
  // The paced offer's seconds start once its connections are open, and so do its CPU and loop
  // delay (until 2026-12-06 they included opening the connections).
  const start = async () => {
    const go = ready ? await ready() : nowMs();
    cpu0 = process.cpuUsage();
    lag.reset();
    return go;
  };
  const res = o.paced
    ? await pacedRun(url, tour, tokens, o, tag, share, start)
    : await cannonRun(url, tour, tokens, cannon, tag, share);
  const endedAt = nowMs();
  const cpu = process.cpuUsage(cpu0);
  lag.disable();
  return {
    samples: res.samples,
    // The paced offer's clock starts once its connections are open.
    startedAt: res.startedAt ?? startedAt,
    endedAt,
    // This process's CPU (µs) over the run: a child has exited by the time its /proc entry would be read.
    cpuUs: cpu.user + cpu.system,
    errors: res.errors,
    timeouts: res.timeouts,
    // How late this process sent its paced requests (null: autocannon's offer, sent when it could).
    sendLateP99Ms: res.sendLateP99Ms,
    // Paced: how long opening the connections took, before the offer (null: autocannon's offer).
    connectP99Ms: res.connectP99Ms,
    connectMaxMs: res.connectMaxMs,
    // The histogram's samples are whole timer periods: the resolution is taken out.
    lagP99Ms: Math.max(0, lag.percentile(99) / 1e6 - 10),
    lagMaxMs: Math.max(0, lag.max / 1e6 - 10),
  };
}

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'offer-child.mjs');

/**
 * The same run shared among n = `processes` processes (offer-child.mjs): each takes every n-th request, its
 * buyers, and 1/n of the connections and of the offered rate. Resolves with the samples of all,
 * their CPU and errors summed, the worst loop delay of any; rejects as soon as one process ends
 * without its share (an error, a signal), and then stops the others, so none is left offering.
 * `pinCore`: each process runs on that core alone (taskset). `onStart`: called as a paced offer
 * starts, its connections open (the overload's meters of the server's CPU start there).
 */
export async function offerFromProcesses({ url, tour, tokens, o, tag, processes: n, pinCore, onStart }) {
  const kids = Array.from({ length: n }, () => fork(child, { serialization: 'advanced' }));
  // Every thread of each offering process on that core (overload --pin).
  if (pinCore !== undefined)
    for (const kid of kids) execFileSync('taskset', ['-a', '-p', '-c', String(pinCore), String(kid.pid)]);
  const opts = { ...o, connections: Math.round(o.connections / n) };
  let ready = 0;
  if (o.overallRate) opts.overallRate = Math.round(o.overallRate / n);
  const shares = kids.map(
    (kid, c) =>
      new Promise((resolve, reject) => {
        // A paced share says when its connections are open; all open, each is told the one time
        // its offer starts, so that the shares run together. Its next message is its share's result.
        kid.on('message', (m) => {
          if (!m.ready) return resolve(m);
          if (++ready < n) return;
          const go = nowMs() + 20;
          for (const k of kids) k.send({ go });
          onStart?.();
        });
        // 'close' comes after the process ended and its IPC channel closed, so after its message.
        kid.once('close', (code, signal) =>
          reject(new Error(`offer process ${c} ended without its share (${signal ?? `exit ${code}`})`)),
        );
        kid.send({
          url,
          tour,
          tokens: tokens.filter((_, i) => i % n === c),
          o: opts,
          tag,
          share: { start: c, step: n },
        });
      }),
  );
  let rs;
  try {
    rs = await Promise.all(shares);
  } catch (err) {
    for (const kid of kids) kid.kill();
    throw err;
  }
  const startedAt = Math.min(...rs.map((r) => r.startedAt));
  return {
    samples: rs.flatMap((r) => r.samples),
    startedAt,
    // From the first process's start to the last one's end (forking and the shares' transfer excluded).
    seconds: (Math.max(...rs.map((r) => r.endedAt)) - startedAt) / 1000,
    cpuUs: rs.reduce((a, r) => a + r.cpuUs, 0),
    errors: rs.reduce((a, r) => a + r.errors, 0),
    timeouts: rs.reduce((a, r) => a + r.timeouts, 0),
    lagP99Ms: Math.max(...rs.map((r) => r.lagP99Ms)),
    lagMaxMs: Math.max(...rs.map((r) => r.lagMaxMs)),
    sendLateP99Ms: worst(rs, 'sendLateP99Ms'),
    connectP99Ms: worst(rs, 'connectP99Ms'),
    connectMaxMs: worst(rs, 'connectMaxMs'),
  };
}

/** The largest of the processes' `key` (null where the offer does not measure it: autocannon's). */
const worst = (rs, key) => (rs[0][key] === null ? null : Math.max(...rs.map((r) => r[key])));
