// A paced open-loop offer (bench/overload): requests arrive as a crowd's do, each connection's at
// times of its own (a Poisson process of rate / connections: exponential gaps, from a seeded
// generator), whatever the answers' latency. Each answer is timed from the moment its request was
// due, not from when it could be sent: a request due while its connection still waits for the
// previous answer waits too, and that wait counts (no coordinated omission), as does this
// process's own lateness in sending it (reported apart as sendLateP99Ms).
//
// Why not autocannon's overallRate: it renews a quota per connection every second, and every
// connection's second starts together, so each connection sends its whole quota at the start of
// each second, as fast as it is answered. The faster the server refuses, the more of the second's
// offer comes in its first tenth: at 2,000 req/s on 1,000 connections (0.56 of the saturating
// rate) 30% of each second's requests came in its busiest tenth, and the admitted p99 was 218 ms
// after connect with the server at 0.42 of a core (2026-12-05).
import { Client, errors as undiciErrors } from 'undici';

/** ms since the epoch, to the microsecond: one clock for every load-generating process. */
export const nowMs = () => performance.timeOrigin + performance.now();

/** A small seeded generator of floats in [0, 1) (mulberry32): a run's arrivals come from its seed. */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Offers `rate` req/s over `connections` for `seconds` to `url` + `path` (POST; `make()` gives each
 * request's headers and body). `lane` numbers this process's connections apart from other
 * processes' (their seeds). Resolves with the samples [latencyMs from due, status, retryAfter,
 * first, dueAt, latencyMs from sending], the errors (timeouts among them), and this process's
 * lateness in sending.
 */
export async function pacedOffer(
  url,
  { path, make, connections, rate, seconds, seed, lane = 0, timeoutMs = 10_000 },
) {
  const meanGapMs = (1000 * connections) / rate;
  const samples = [];
  const lateMs = [];
  let errors = 0;
  let timeouts = 0;
  // Every connection is open before the offer's clock starts (a GET /livez each, all at once),
  // as an instance behind a proxy with kept-alive upstream connections sees its crowd; how long
  // they took is reported (connectMs), apart from the offer.
  const clients = Array.from({ length: connections }, () => newClient(url, timeoutMs));
  const connectMs = await Promise.all(clients.map((client) => opened(client)));
  connectMs.sort((a, b) => a - b);
  const startedAt = nowMs();
  const endAt = startedAt + seconds * 1000;

  async function connection(c) {
    const random = seeded(seed + 7919 * (lane + c));
    const gap = () => -Math.log(1 - random()) * meanGapMs;
    const client = clients[c];
    let due = startedAt + gap();
    let first = true;
    try {
      while (due < endAt) {
        // Again while early: a timer counts from the loop's clock of its turn, which may lag.
        for (let wait = due - nowMs(); wait > 0; wait = due - nowMs()) await sleep(Math.ceil(wait));
        const sentAt = nowMs();
        lateMs.push(Math.max(0, sentAt - due));
        try {
          const res = await client.request({ method: 'POST', path, ...make() });
          await res.body.dump();
          const at = nowMs();
          samples.push([
            at - due,
            res.statusCode,
            res.headers['retry-after'] !== undefined,
            first,
            due,
            at - sentAt,
          ]);
        } catch (err) {
          errors++;
          if (err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError)
            timeouts++;
        }
        first = false;
        due += gap();
      }
    } finally {
      await client.destroy();
    }
  }

  await Promise.all(Array.from({ length: connections }, (_, c) => connection(c)));
  lateMs.sort((a, b) => a - b);
  return {
    samples,
    startedAt,
    endedAt: nowMs(),
    errors,
    timeouts,
    sendLateP99Ms: p99(lateMs),
    connectP99Ms: p99(connectMs),
    connectMaxMs: connectMs[connectMs.length - 1] ?? 0,
  };
}

const p99 = (sorted) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] : 0;

/** One connection, one request at a time (no pipelining). */
const newClient = (url, timeoutMs) =>
  new Client(url, {
    pipelining: 1,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connectTimeout: timeoutMs,
  });

/** Opens the client's connection with a GET /livez; resolves with how long it took (ms). */
async function opened(client) {
  const at = nowMs();
  const res = await client.request({ method: 'GET', path: '/livez' });
  await res.body.dump();
  if (res.statusCode !== 200) throw new Error(`GET /livez answered ${res.statusCode} while connecting`);
  return nowMs() - at;
}
