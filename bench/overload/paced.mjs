// A paced open-loop offer (bench/overload): requests arrive as a crowd's do, at random times (a
// Poisson process of the offered rate: exponential gaps from a seeded generator), whatever the
// answers' latency, and each goes out on any of the open connections that is free (raw-pool.mjs,
// or undici's Pool to compare with), as a proxy's pool of kept-alive upstream connections carries a crowd to an instance. Each
// answer is timed from the moment its request was due, not from when it could be sent: a request
// due while every connection was busy, or while this process was late, waits, and that wait
// counts (no coordinated omission); its lateness in sending is reported apart (sendLateP99Ms).
//
// Why not autocannon's overallRate: it renews a quota per connection every second, and every
// connection's second starts together, so each connection sends its whole quota at the start of
// each second, as fast as it is answered. The faster the server refuses, the more of the second's
// offer comes in its first tenth: at 2,000 req/s on 1,000 connections (0.56 of the saturating
// rate) 30% of each second's requests came in its busiest tenth, and the admitted p99 was 218 ms
// after connect with the server at 0.42 of a core (2026-12-05).
import { Pool, errors as undiciErrors } from 'undici';
import { RawPool } from './raw-pool.mjs';
import { percentile, rng } from '../lib.mjs';

/**
 * What carries the requests: 'raw' (raw-pool.mjs: bare sockets, the least CPU per request) or
 * 'undici' (its Pool: the first paced offer's client, kept to compare with).
 */
export const CLIENTS = ['raw', 'undici'];

/** ms since the epoch, to the microsecond: one clock for every load-generating process. */
export const nowMs = () => performance.timeOrigin + performance.now();

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Offers `rate` req/s over `connections` for `seconds` to `url` + `path` (POST; `make()` gives each
 * request's headers and body); `seed` (and `lane`, which tells processes sharing an offer apart)
 * gives its arrival times; `ready()`, once the connections are open, resolves with the time the
 * offer starts (processes sharing an offer wait for each other). Resolves with the samples
 * [latencyMs from due, status, retryAfter, first (always false: the connections were opened
 * before), leftAt (when it was written to a connection on the raw client, after any wait for a
 * free one; when it was handed to the pool on undici), latencyMs from leftAt, dueAt], the errors
 * (timeouts among them), this process's lateness in sending, and how long opening the
 * connections took.
 */
export async function pacedOffer(
  url,
  {
    path,
    make,
    connections,
    rate,
    seconds,
    seed,
    lane = 0,
    timeoutMs = 10_000,
    ready = async () => nowMs(),
    client = 'raw',
  },
) {
  if (!CLIENTS.includes(client))
    throw new Error(`the paced offer's client is ${CLIENTS.join(' or ')}, not ${client}`);
  const pool =
    client === 'raw' ? new RawPool(url, { connections, timeoutMs }) : undiciPool(url, connections, timeoutMs);
  const samples = [];
  const lateMs = [];
  const failures = { errors: 0, timeouts: 0 };
  try {
    // Every connection is open before the offer's clock starts (a GET /livez each, all at once),
    // as an instance behind a proxy with kept-alive upstream connections sees its crowd; how long
    // that took is reported (connectMs), apart from the offer.
    const connectMs = await Promise.all(Array.from({ length: connections }, () => opened(pool)));
    connectMs.sort((a, b) => a - b);
    // Processes sharing an offer start its clock together, once all are connected (`ready`).
    const startedAt = await ready();
    const send = async (due) => {
      const sentAt = nowMs();
      lateMs.push(sentAt - due);
      try {
        const res = await pool.request({ method: 'POST', path, ...make() });
        const at = nowMs();
        // When it left: written to a connection (the raw client says when, after any wait for a
        // free one), else handed to the pool (undici). Until 2026-12-06 this was `due`, so the
        // burst fields measured the seeded schedule, even by construction, not the sending.
        const leftAt = res.writtenAt ?? sentAt;
        samples.push([at - due, res.statusCode, res.retryAfter, false, leftAt, at - leftAt, due]);
      } catch (err) {
        failures.errors++;
        if (err.timeout) failures.timeouts++;
      }
    };
    const sent = await arrivals(startedAt, seconds, rate, rng(seed + 7919 * lane), send);
    await Promise.all(sent);
    lateMs.sort((a, b) => a - b);
    return {
      samples,
      startedAt,
      endedAt: nowMs(),
      ...failures,
      sendLateP99Ms: percentile(lateMs, 99),
      connectP99Ms: percentile(connectMs, 99),
      connectMaxMs: connectMs[connectMs.length - 1] ?? 0,
    };
  } finally {
    await pool.destroy();
  }
}

/**
 * Calls `send(dueAt)` for each arrival of a Poisson process of `rate` per second over `seconds`
 * from `startedAt`, every arrival due by now at once; resolves with their promises.
 */
async function arrivals(startedAt, seconds, rate, random, send) {
  const meanGapMs = 1000 / rate;
  const gap = () => -Math.log(1 - random()) * meanGapMs;
  const endAt = startedAt + seconds * 1000;
  const sent = [];
  let due = startedAt + gap();
  while (due < endAt) {
    // Again while early: a timer counts from the loop's clock of its turn, which may lag.
    for (let wait = due - nowMs(); wait > 0; wait = due - nowMs()) await sleep(Math.ceil(wait));
    const now = nowMs();
    for (; due <= now && due < endAt; due += gap()) sent.push(send(due));
  }
  return sent;
}

/**
 * undici's Pool in the raw pool's shape: request() resolves with { statusCode, retryAfter } once
 * the body is read; a timeout rejects with an error whose `timeout` is true.
 */
function undiciPool(url, connections, timeoutMs) {
  const pool = new Pool(url, {
    connections,
    pipelining: 1,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connectTimeout: timeoutMs,
  });
  return {
    async request(opts) {
      try {
        const res = await pool.request(opts);
        await res.body.dump();
        return { statusCode: res.statusCode, retryAfter: res.headers['retry-after'] !== undefined };
      } catch (err) {
        const timeout =
          err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError;
        throw Object.assign(err, { timeout });
      }
    },
    destroy: () => pool.destroy(),
  };
}

/** Opens one of the pool's connections with a GET /livez; resolves with how long it took (ms). */
async function opened(pool) {
  const at = nowMs();
  const res = await pool.request({ method: 'GET', path: '/livez' });
  if (res.statusCode !== 200) throw new Error(`GET /livez answered ${res.statusCode} while connecting`);
  return nowMs() - at;
}
