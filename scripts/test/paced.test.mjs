// bench/overload/paced.mjs: the overload's paced offer against stand-in HTTP servers. It offers
// the rate it is given, evenly (not in per-second bursts), its connections opened before its
// clock starts, and it times each answer from when the request was due: a request due while
// every connection waited for an answer counts that wait (no coordinated omission), and a free
// connection takes a request at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { CLIENTS, nowMs, pacedOffer } from '../../bench/overload/paced.mjs';
import { offerFromProcesses } from '../../bench/overload/offer.mjs';

/** A stand-in server: `answer(req, res, n)` for the n-th POST; GET /livez answers 200. */
async function standIn(answer, { livezDelayMs = 0 } = {}) {
  let posts = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'GET') return setTimeout(() => res.writeHead(200).end('ok'), livezDelayMs);
      answer(req, res, posts++);
    });
  });
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    posts: () => posts,
    connections: () => connections,
    close: () => new Promise((r) => server.close(r)),
  };
}

const make = () => ({ headers: { 'content-type': 'application/json' }, body: '{}' });

for (const client of CLIENTS)
  test(`offers the rate evenly over its connections, opened before the clock starts (${client})`, async () => {
    const s = await standIn((req, res, n) =>
      n % 3 === 0 ? res.writeHead(503, { 'Retry-After': '1' }).end('{}') : res.writeHead(201).end('{}'),
    );
    try {
      const r = await pacedOffer(s.url, {
        path: '/o',
        make,
        connections: 20,
        rate: 400,
        seconds: 2,
        seed: 7,
        client,
      });
      // A Poisson offer of 400/s for 2 s: 800 expected (sd ~28).
      assert.ok(r.samples.length > 650 && r.samples.length < 950, `${r.samples.length} requests`);
      assert.equal(r.errors, 0);
      assert.equal(s.posts(), r.samples.length);
      // Even at a tenth of a second: no tenth of the run holds more than twice its share.
      const tenths = new Array(20).fill(0);
      for (const x of r.samples) tenths[Math.min(19, Math.floor((x[4] - r.startedAt) / 100))]++;
      assert.ok(Math.max(...tenths) < (2 * r.samples.length) / 20, JSON.stringify(tenths));
      // Connections opened before the clock: no request was due before it started, and none left
      // before it was due.
      assert.ok(r.samples.every((x) => x[6] >= r.startedAt && x[4] >= x[6]));
      assert.ok(r.connectMaxMs > 0 && r.connectP99Ms <= r.connectMaxMs);
      assert.equal(s.connections(), 20, 'every connection opened, and no other');
      // Every refusal seen with its Retry-After, and each sample timed from due ≥ from sending.
      assert.ok(r.samples.filter((x) => x[1] === 503).every((x) => x[2] === true));
      assert.ok(r.samples.filter((x) => x[1] === 201).every((x) => x[2] === false));
      assert.ok(r.samples.every((x) => x[0] >= x[5] - 0.001));
    } finally {
      await s.close();
    }
  });

/**
 * A paced offer of 50/s for 1.5 s over `connections` to a server whose first answer takes 400 ms
 * and the others none: the samples by due time, and the connections the server saw.
 */
async function slowFirstOffer(connections) {
  const s = await standIn((req, res, n) => setTimeout(() => res.writeHead(201).end('{}'), n === 0 ? 400 : 0));
  try {
    const r = await pacedOffer(s.url, { path: '/o', make, connections, rate: 50, seconds: 1.5, seed: 3 });
    return { byDue: r.samples.slice().sort((a, b) => a[6] - b[6]), connections: s.connections() };
  } finally {
    await s.close();
  }
}

test('a request due while every connection is busy counts the wait; a free connection takes it at once', async () => {
  // On one connection, the requests due during the slow answer go out after it, and their latency
  // runs from when they were due; on four, they go out on the free connections at once.
  const one = await slowFirstOffer(1);
  assert.ok(one.byDue[0][0] >= 390, `first ${one.byDue[0][0]} ms`);
  const waited = one.byDue.filter((x) => x[6] < one.byDue[0][6] + 300).slice(1);
  assert.ok(waited.length >= 3, `${waited.length} requests due during the slow answer`);
  for (const x of waited) assert.ok(x[0] > 90, JSON.stringify(x));
  // They left once the connection was free (x[4], when written to it), not when due: the burst
  // fields count that, and their time from leaving (x[5]) leaves the wait out.
  const freedAt = one.byDue[0][6] + one.byDue[0][0];
  for (const x of waited) assert.ok(x[4] >= freedAt - 5 && x[5] < x[0] - 50, JSON.stringify(x));

  const four = await slowFirstOffer(4);
  assert.ok(four.byDue[0][0] >= 390, `first ${four.byDue[0][0]} ms`);
  // Those due while it was answered were answered before it ended (on one connection, none was).
  const slowEnd = four.byDue[0][6] + four.byDue[0][0];
  const meanwhile = four.byDue.slice(1).filter((x) => x[6] < slowEnd - 100);
  assert.ok(meanwhile.length >= 3, `${meanwhile.length} requests due during the slow answer`);
  for (const x of meanwhile) assert.ok(x[6] + x[0] < slowEnd, JSON.stringify(x));
  assert.equal(four.connections, 4);
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
    const r = await offerFromProcesses({ url: s.url, tour, tokens, o, tag: 'paced', processes: 2 });
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

test('offers that share a start begin together, however long each took to connect', async () => {
  // Two offers, one to a server that takes 300 ms to answer each connection's GET /livez.
  const slow = await standIn((req, res) => res.writeHead(201).end('{}'), { livezDelayMs: 300 });
  const fast = await standIn((req, res) => res.writeHead(201).end('{}'));
  const o = { path: '/o', make, connections: 2, rate: 100, seconds: 0.5, seed: 5 };
  try {
    // Alone, each starts once its own connections are open: 300 ms apart.
    const [a, b] = await Promise.all([pacedOffer(slow.url, o), pacedOffer(fast.url, o)]);
    assert.ok(a.startedAt - b.startedAt > 250, `${a.startedAt - b.startedAt} ms apart`);
    // With a shared start (as offerFromProcesses gives its processes): together.
    let waiting = 0;
    let go;
    const started = new Promise((resolve) => (go = resolve));
    const ready = () => {
      if (++waiting === 2) go(nowMs() + 20);
      return started;
    };
    const [c, d] = await Promise.all([
      pacedOffer(slow.url, { ...o, ready }),
      pacedOffer(fast.url, { ...o, ready }),
    ]);
    assert.equal(c.startedAt, d.startedAt);
    assert.ok(
      c.connectMaxMs >= 290 && d.connectMaxMs < 200,
      JSON.stringify([c.connectMaxMs, d.connectMaxMs]),
    );
  } finally {
    await slow.close();
    await fast.close();
  }
});
