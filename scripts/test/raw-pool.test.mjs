// bench/overload/raw-pool.mjs: the paced offer's bare-socket HTTP/1.1 pool, against stand-in
// servers that answer in the shapes it must read: a Content-Length body split over several
// packets, chunked bodies, answers without a body, two answers in one packet, a server that
// closes the connection, and one that never answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { RawPool, RawRequestError } from '../../bench/overload/raw-pool.mjs';

/** A stand-in on bare sockets: `onRequest(socket, n)` for the n-th request head it reads. */
async function rawServer(onRequest) {
  let n = 0;
  let connections = 0;
  const sockets = new Set();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buf = '';
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      for (let end = buf.indexOf('\r\n\r\n'); end >= 0; end = buf.indexOf('\r\n\r\n')) {
        const len = Number(/content-length: (\d+)/i.exec(buf.slice(0, end))?.[1] ?? 0);
        if (buf.length < end + 4 + len) return;
        buf = buf.slice(end + 4 + len);
        onRequest(socket, n++);
      }
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    connections: () => connections,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(r));
    },
  };
}

const post = (pool) => pool.request({ method: 'POST', path: '/o', headers: { a: 'b' }, body: '{"x":"票"}' });
/** An answer's status and Retry-After (its writtenAt has a test of its own). */
const seen = ({ statusCode, retryAfter }) => ({ statusCode, retryAfter });

test('reads the status and Retry-After of answers however their bodies come', async () => {
  const answers = [
    // Content-Length, the body in three packets.
    (s) => {
      s.write('HTTP/1.1 201 Created\r\nContent-Length: 11\r\n\r\n{"a"');
      setTimeout(() => s.write(':"票'), 5); // a multi-byte character: the length is in bytes
      setTimeout(() => s.write('"}'), 10);
    },
    // Chunked, two chunks, the head and the first chunk apart.
    (s) => {
      s.write('HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nTransfer-Encoding: chunked\r\n\r\n');
      setTimeout(() => s.write('3\r\n{"a\r\n4\r\n":1}\r\n0\r\n\r\n'), 5);
    },
    // No body.
    (s) => s.write('HTTP/1.1 204 No Content\r\n\r\n'),
    (s) => s.write('HTTP/1.1 409 Conflict\r\ncontent-length: 2\r\n\r\n{}'),
  ];
  const srv = await rawServer((s, n) => answers[n](s));
  const pool = new RawPool(srv.url, { connections: 1 });
  try {
    const got = [];
    for (let i = 0; i < answers.length; i++) got.push(seen(await post(pool)));
    assert.deepEqual(got, [
      { statusCode: 201, retryAfter: false },
      { statusCode: 503, retryAfter: true },
      { statusCode: 204, retryAfter: false },
      { statusCode: 409, retryAfter: false },
    ]);
    assert.equal(srv.connections(), 1, 'every answer read to its end: the one connection kept');
  } finally {
    pool.destroy();
    await srv.close();
  }
});

test('a malformed answer fails its request and closes its connection', async () => {
  const answers = [
    (s) => s.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'),
    (s) => s.write('SMTP ready\r\n\r\n'),
    (s) => s.write('HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n'),
  ];
  const srv = await rawServer((s, n) => answers[n](s));
  const pool = new RawPool(srv.url, { connections: 1 });
  try {
    await assert.rejects(post(pool), /malformed/);
    await assert.rejects(post(pool), /malformed/);
    assert.equal((await post(pool)).statusCode, 201);
    assert.equal(srv.connections(), 3);
  } finally {
    pool.destroy();
    await srv.close();
  }
});

test('sends each request on a free connection, the rest waiting first come first served', async () => {
  const order = [];
  const srv = await rawServer((s, n) => {
    order.push(n);
    setTimeout(() => s.write(`HTTP/1.1 200 OK\r\nContent-Length: ${String(n).length}\r\n\r\n${n}`), 20);
  });
  const pool = new RawPool(srv.url, { connections: 3 });
  try {
    const t0 = performance.now();
    const answers = await Promise.all(Array.from({ length: 9 }, () => post(pool)));
    assert.ok(answers.every((a) => a.statusCode === 200));
    assert.equal(srv.connections(), 3);
    // Nine requests, three at a time, 20 ms each: three rounds, not one, not nine.
    const ms = performance.now() - t0;
    assert.ok(ms >= 55 && ms < 170, `${ms} ms`);
  } finally {
    pool.destroy();
    await srv.close();
  }
});

test('writtenAt: when a request was written to its connection, after its wait for a free one', async () => {
  // One connection, each answer 40 ms after its request: the second request waits for the first.
  const srv = await rawServer((s) =>
    setTimeout(() => s.write('HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n'), 40),
  );
  const pool = new RawPool(srv.url, { connections: 1 });
  try {
    const handedAt = performance.timeOrigin + performance.now();
    const [first, second] = await Promise.all([post(pool), post(pool)]);
    const answeredAt = performance.timeOrigin + performance.now();
    // Epoch milliseconds, as paced.mjs's nowMs.
    assert.ok(
      first.writtenAt >= handedAt && first.writtenAt < handedAt + 30,
      `${first.writtenAt - handedAt} ms`,
    );
    assert.ok(second.writtenAt - first.writtenAt >= 35, `${second.writtenAt - first.writtenAt} ms apart`);
    assert.ok(second.writtenAt <= answeredAt);
  } finally {
    pool.destroy();
    await srv.close();
  }
});

test('a connection the server closes fails its request and is opened again for the next', async () => {
  const srv = await rawServer((s, n) => {
    if (n === 0)
      s.destroy(); // no answer at all
    else if (n === 1) s.end('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else s.write('HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n');
  });
  const pool = new RawPool(srv.url, { connections: 1 });
  try {
    await assert.rejects(post(pool), (err) => err instanceof RawRequestError && !err.timeout);
    assert.equal((await post(pool)).statusCode, 200);
    assert.equal((await post(pool)).statusCode, 201);
    assert.equal(srv.connections(), 3);
  } finally {
    pool.destroy();
    await srv.close();
  }
});

test('a request unanswered past the timeout fails as a timeout; requests waiting behind it go on', async () => {
  const srv = await rawServer((s, n) => {
    if (n > 0) s.write('HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n');
  });
  const pool = new RawPool(srv.url, { connections: 1, timeoutMs: 100 });
  try {
    const [first, second] = await Promise.allSettled([post(pool), post(pool)]);
    assert.equal(first.status, 'rejected');
    assert.equal(first.reason.timeout, true);
    assert.deepEqual(seen(second.value), { statusCode: 201, retryAfter: false });
  } finally {
    pool.destroy();
    await srv.close();
  }
});

test("talks to Node's own HTTP server as the bench's server is one", async () => {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      // The request as sent: its method, path, headers and a body of the right byte length.
      const ok = req.method === 'POST' && req.url === '/o' && req.headers.a === 'b' && body === '{"x":"票"}';
      if (!ok) return res.writeHead(400).end();
      res.writeHead(503, { 'Retry-After': '1' });
      res.write('{"error":'); // chunked: no length given, written in two parts
      res.end('{}}');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const pool = new RawPool(`http://127.0.0.1:${server.address().port}`, { connections: 2 });
  try {
    for (let i = 0; i < 3; i++)
      assert.deepEqual(seen(await post(pool)), { statusCode: 503, retryAfter: true });
  } finally {
    pool.destroy();
    await new Promise((r) => server.close(r));
  }
});
