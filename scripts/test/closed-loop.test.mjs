// bench/closed-loop.mjs: the flash-sale bench's closed loop over the raw pool, against a
// node:http server that records what it was sent and how many requests it had at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { closedLoop, postOrders, timedLoop } from '../../bench/closed-loop.mjs';

async function server(answer) {
  const seen = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const s = http.createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () =>
      setTimeout(() => {
        seen.push({ method: req.method, key: req.headers['idempotency-key'], body });
        inFlight--;
        answer(req, res);
      }, 2),
    );
  });
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${s.address().port}`,
    seen,
    maxInFlight: () => maxInFlight,
    close: () => new Promise((r) => s.close(r)),
  };
}

test('sends each request once, at most one per connection at a time, and reports every answer', async () => {
  const srv = await server((req, res) => {
    res.statusCode = Number(req.headers['idempotency-key'].slice(2)) % 2 ? 409 : 201;
    res.end('{}');
  });
  const answers = [];
  try {
    const sent = await closedLoop({
      url: srv.url,
      connections: 3,
      next: (i) =>
        i < 10
          ? { method: 'POST', path: '/o', headers: { 'idempotency-key': `k-${i}` }, body: `{"i":${i}}` }
          : undefined,
      onAnswer: (status, sentAt, now) => answers.push([status, now >= sentAt]),
    });
    assert.equal(sent, 10);
    assert.deepEqual(
      srv.seen.map((r) => r.key).sort(),
      Array.from({ length: 10 }, (_, i) => `k-${i}`).sort(),
    );
    assert.ok(srv.seen.every((r) => r.method === 'POST' && r.body === `{"i":${r.key.slice(2)}}`));
    assert.ok(srv.maxInFlight() <= 3, `at most 3 at once, saw ${srv.maxInFlight()}`);
    assert.deepEqual(answers.map(([s]) => s).sort(), [...Array(5).fill(201), ...Array(5).fill(409)]);
    assert.ok(answers.every(([, ordered]) => ordered));
  } finally {
    await srv.close();
  }
});

test('stops sending at untilMs, and hands a request the pool could not complete to onError', async () => {
  const srv = await server((req, res) => (req.method === 'DELETE' ? res.socket.destroy() : res.end('ok')));
  try {
    const until = performance.now() + 100;
    const sent = await closedLoop({
      url: srv.url,
      connections: 2,
      untilMs: until,
      next: () => ({ method: 'GET', path: '/' }),
    });
    assert.ok(sent > 0 && performance.now() >= until);
    const errors = [];
    await closedLoop({
      url: srv.url,
      connections: 1,
      next: (i) => (i < 1 ? { method: 'DELETE', path: '/' } : undefined),
      onAnswer: () => assert.fail('answered'),
      onError: (err) => errors.push(err.name),
    });
    assert.equal(errors.length, 1);
  } finally {
    await srv.close();
  }
});

test("gives an answer's body, and the request's index, to a request that asks for it (readBody)", async () => {
  const srv = await server((req, res) =>
    res.end(JSON.stringify({ key: req.headers['idempotency-key'], 名: '票' })),
  );
  const bodies = new Map();
  try {
    await closedLoop({
      url: srv.url,
      connections: 2,
      next: (i) =>
        i < 6
          ? { method: 'GET', path: '/', headers: { 'idempotency-key': `k-${i}` }, readBody: i % 2 === 0 }
          : undefined,
      onAnswer: (status, sentAt, now, body, i) => bodies.set(i, body),
    });
    assert.equal(bodies.size, 6);
    for (const [i, body] of bodies)
      assert.deepEqual(
        body === undefined ? undefined : JSON.parse(body),
        i % 2 ? undefined : { key: `k-${i}`, 名: '票' },
      );
  } finally {
    await srv.close();
  }
});

test('timedLoop counts every answer, the wrong ones and the unanswered apart, for its seconds', async () => {
  // Every third request is refused 503, every seventh has its connection cut.
  const srv = await server((req, res) => {
    const i = Number(req.headers['idempotency-key'].slice(2));
    if (i % 7 === 6) return res.socket.destroy();
    res.statusCode = i % 3 === 2 ? 503 : 200;
    res.end('{}');
  });
  const seen = [];
  try {
    const t0 = performance.now();
    const r = await timedLoop({
      url: srv.url,
      connections: 2,
      seconds: 0.2,
      next: (i) => ({ method: 'GET', path: '/', headers: { 'idempotency-key': `k-${i}` } }),
      ok: (status) => status === 200,
      onAnswer: (status) => seen.push(status),
      onError: () => seen.push(0),
    });
    assert.ok(performance.now() - t0 >= 200);
    assert.equal(r.answered, seen.filter((s) => s !== 0).length);
    assert.equal(r.wrong, seen.filter((s) => s === 503).length);
    assert.equal(r.failed, seen.filter((s) => s === 0).length);
    assert.ok(r.answered > 0 && r.wrong > 0 && r.failed > 0, JSON.stringify(r));
    assert.ok(r.rps > 0);
  } finally {
    await srv.close();
  }
});

test('postOrders reports a purchase that got no answer as status 0 with the time it waited, not 0 ms', async () => {
  // The third buyer's connection is cut after 60 ms; the others are answered at once.
  const srv = await server((req, res) =>
    req.headers['idempotency-key'] === 'k-2' ? setTimeout(() => res.socket.destroy(), 60) : res.end('{}'),
  );
  const seen = [];
  try {
    await postOrders({
      url: srv.url,
      connections: 2,
      tokens: ['a', 'b', 'c', 'd'],
      bodies: ['{}', '{}', '{}', '{}'],
      keyTag: 'k',
      onResponse: (status, sentAt, now) => seen.push([status, now - sentAt]),
    });
    assert.equal(seen.length, 4);
    const failed = seen.filter(([status]) => status === 0);
    assert.equal(failed.length, 1);
    assert.ok(failed[0][1] >= 60, `waited ${failed[0][1]} ms`);
  } finally {
    await srv.close();
  }
});
