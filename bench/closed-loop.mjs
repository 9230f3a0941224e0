// A closed loop of requests over bare kept-alive sockets (overload/raw-pool.mjs): `connections`
// senders, each sending its next request as soon as its last one is answered. The flash-sale
// bench sends its purchases and its hello-world's GETs through it, so that both sides of its
// ratio are measured with one instrument. Why not autocannon there: a request built per call
// (setupRequest, each buyer's own token, key and body) cost autocannon 66-96 µs of the bench
// process's CPU against 41-54 µs through this loop (2026-12-07, 40,000 purchase-shaped POSTs to
// bench/raw-http's server), and on this 2-core machine the load generator's CPU is taken from the
// server, MariaDB and Redis.
import { RawPool } from './overload/raw-pool.mjs';

/**
 * Runs the loop until `next(i)` returns undefined (the i-th request: { method, path, headers,
 * body, readBody }) or `untilMs` (performance.now()) passes; `onAnswer(statusCode, sentAt, now,
 * body, i)` sees each answer (its body as text when the request asked, readBody: true),
 * `onError(err, i, sentAt)` each request the pool could not complete (its connection failed, or no
 * answer within `timeoutMs`). Resolves with the number of requests sent.
 */
export async function closedLoop({
  url,
  connections,
  next,
  onAnswer,
  onError,
  untilMs = Infinity,
  timeoutMs = 30_000,
}) {
  const pool = new RawPool(url, { connections, timeoutMs });
  let sent = 0;
  const sender = async () => {
    for (;;) {
      if (performance.now() >= untilMs) return;
      const i = sent;
      const req = next(i);
      if (req === undefined) return;
      sent++;
      const sentAt = performance.now();
      let answer;
      try {
        answer = await pool.request(req);
      } catch (err) {
        onError?.(err, i, sentAt);
        continue;
      }
      onAnswer?.(answer.statusCode, sentAt, performance.now(), answer.body, i);
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, sender));
  } finally {
    pool.destroy();
  }
  return sent;
}

/**
 * The closed loop for `seconds`: every answer counted (`answered`), those whose status `ok` refuses
 * (`wrong`) and the requests that got none (`failed`) apart, and the answers a second over the
 * time to the last one. `onAnswer` and `onError` see each as closedLoop's do. The benches' timed
 * phases (the hello-world, the raw server, the waiting room's polls) all count this way.
 */
export async function timedLoop({ url, connections, seconds, next, ok = () => true, onAnswer, onError }) {
  const t0 = performance.now();
  let answered = 0;
  let wrong = 0;
  let failed = 0;
  await closedLoop({
    url,
    connections,
    untilMs: t0 + seconds * 1000,
    next,
    onAnswer: (status, sentAt, now, body, i) => {
      answered++;
      if (!ok(status)) wrong++;
      onAnswer?.(status, sentAt, now, body, i);
    },
    onError: (err, i, sentAt) => {
      failed++;
      onError?.(err, i, sentAt);
    },
  });
  return { answered, wrong, failed, rps: answered / ((performance.now() - t0) / 1000) };
}

/** A fan's purchase as the benches send it (a request of closedLoop's): their token, key and body. */
export const purchaseRequest = (token, key, body) => ({
  method: 'POST',
  path: '/api/v1/orders',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': key },
  body,
});

/**
 * A sale over real HTTP: every body POSTed once to /api/v1/orders over `connections` kept-alive
 * connections in a closed loop (closedLoop), body i by buyer tokens[i] with the idempotency
 * key `${keyTag}-${i}`. onResponse(status, sentAt, now) sees every answer (times from
 * performance.now()); a request the pool could not complete counts as status 0, with the time it
 * waited (until 2026-12-07 it counted as waiting 0 ms, which a failure would have taken out of the
 * tail instead of into it). Until 2026-12-07 it was sent through autocannon (the head of this file
 * says why no longer).
 */
export async function postOrders({ url, connections, tokens, bodies, keyTag, onResponse }) {
  await closedLoop({
    url,
    connections,
    next: (i) => (i < bodies.length ? purchaseRequest(tokens[i], `${keyTag}-${i}`, bodies[i]) : undefined),
    onAnswer: onResponse,
    onError: (err, i, sentAt) => onResponse(0, sentAt, performance.now()),
  });
}
