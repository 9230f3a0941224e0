// bench/overload/paced.mjs: the overload's paced offer against stand-in HTTP servers. It offers
// the rate it is given, evenly (not in per-second bursts), its connections opened before its
// clock starts, and it times each answer from when the request was due: a request due while its
// connection waited for a slow answer counts that wait (no coordinated omission).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { pacedOffer, seeded } from '../../bench/overload/paced.mjs';
import { offerFromProcesses } from '../../bench/overload/offer.mjs';

/** A stand-in server: `answer(req, res, n)` for the n-th POST; GET /livez answers 200. */
async function standIn(answer) {
  let posts = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'GET') return res.writeHead(200).end('ok');
      answer(req, res, posts++);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    posts: () => posts,
    close: () => new Promise((r) => server.close(r)),
  };
}

const make = () => ({ headers: { 'content-type': 'application/json' }, body: '{}' });

test('the seeded generator repeats its sequence for a seed and differs for another', () => {
  const a = seeded(42);
  const b = seeded(42);
  const c = seeded(43);
  const xs = Array.from({ length: 5 }, () => a());
  assert.deepEqual(
    xs,
    Array.from({ length: 5 }, () => b()),
  );
  assert.notDeepEqual(
    xs,
    Array.from({ length: 5 }, () => c()),
  );
  assert.ok(xs.every((x) => x >= 0 && x < 1));
});

test('offers the rate evenly over its connections, opened before the clock starts', async () => {
  const s = await standIn((req, res, n) =>
    n % 3 === 0 ? res.writeHead(503, { 'Retry-After': '1' }).end('{}') : res.writeHead(201).end('{}'),
  );
  try {
    const r = await pacedOffer(s.url, { path: '/o', make, connections: 20, rate: 400, seconds: 2, seed: 7 });
    // A Poisson offer of 400/s for 2 s: 800 expected (sd ~28).
    assert.ok(r.samples.length > 650 && r.samples.length < 950, `${r.samples.length} requests`);
    assert.equal(r.errors, 0);
    assert.equal(s.posts(), r.samples.length);
    // Even at a tenth of a second: no tenth of the run holds more than twice its share.
    const tenths = new Array(20).fill(0);
    for (const x of r.samples) tenths[Math.min(19, Math.floor((x[4] - r.startedAt) / 100))]++;
    assert.ok(Math.max(...tenths) < (2 * r.samples.length) / 20, JSON.stringify(tenths));
    // Connections opened before the clock: no request was due before it started.
    assert.ok(r.samples.every((x) => x[4] >= r.startedAt));
    assert.ok(r.connectMaxMs > 0 && r.connectP99Ms <= r.connectMaxMs);
    // Every refusal seen with its Retry-After, and each sample timed from due ≥ from sending.
    assert.ok(r.samples.filter((x) => x[1] === 503).every((x) => x[2] === true));
    assert.ok(r.samples.filter((x) => x[1] === 201).every((x) => x[2] === false));
    assert.ok(r.samples.every((x) => x[0] >= x[5] - 0.001));
  } finally {
    await s.close();
  }
});

test('a request due while its connection waits for a slow answer counts the wait', async () => {
  // One connection, 50 requests/s: the first answer takes 400 ms, the others none. The requests
  // due meanwhile go out after it, late, and their latency runs from when they were due.
  const s = await standIn((req, res, n) => {
    if (n === 0) setTimeout(() => res.writeHead(201).end('{}'), 400);
    else res.writeHead(201).end('{}');
  });
  try {
    const r = await pacedOffer(s.url, { path: '/o', make, connections: 1, rate: 50, seconds: 1.5, seed: 3 });
    const late = r.samples.slice(1, 4);
    assert.ok(r.samples[0][0] >= 390, `first ${r.samples[0][0]} ms`);
    // The next requests were due during the first's 400 ms: each waited, and it counts.
    for (const x of late) assert.ok(x[0] > 50 && x[0] - x[5] > 40, JSON.stringify(x));
    assert.ok(r.sendLateP99Ms > 100, `sent late by ${r.sendLateP99Ms} ms at p99`);
  } finally {
    await s.close();
  }
});

test('processes share a paced offer: each its n-th requests, the whole rate between them', async () => {
  const seen = [];
  const s = await standIn((req, res) => {
    seen.push(Number(/-(\d+)$/.exec(req.headers['idempotency-key'])[1]));
    res.writeHead(201).end('{}');
  });
  try {
    const tour = [{ id: '1', zoneId: '9', seatIds: ['a', 'b', 'c', 'd', 'e'] }];
    const tokens = Array.from({ length: 6 }, (_, i) => `t${i}`);
    const o = { connections: 8, overallRate: 300, duration: 1.5, paced: true, seed: 11 };
    const r = await offerFromProcesses(s.url, tour, tokens, o, 'paced', 2);
    assert.equal(new Set(seen).size, seen.length, 'a request was sent twice');
    assert.ok(seen.length > 330 && seen.length < 570, `${seen.length} requests`);
    for (const c of [0, 1])
      assert.ok(
        seen.some((i) => i % 2 === c),
        `process ${c} sent nothing`,
      );
    assert.equal(r.samples.length, seen.length);
    assert.ok(r.sendLateP99Ms !== null && r.connectP99Ms !== null);
  } finally {
    await s.close();
  }
});
