// bench/flash-sale/servers.mjs: what --servers refuses before the bench seeds anything, and the
// seat maps opened on a new connection each time past one process, so that each process the
// kernel spreads connections over gets every catalog.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { checkServers, openSeatMaps } from '../../bench/flash-sale/servers.mjs';

test('--servers: a whole number from 1; past 1 only with a Node that has SO_REUSEPORT named', () => {
  const saved = process.env.BENCH_SERVER_NODE;
  try {
    delete process.env.BENCH_SERVER_NODE;
    assert.doesNotThrow(() => checkServers(1));
    for (const n of [0, -1, 1.5, NaN]) assert.throws(() => checkServers(n), /a whole number from 1/);
    assert.throws(() => checkServers(2), /--node 24/);
    process.env.BENCH_SERVER_NODE = '/some/node24';
    assert.doesNotThrow(() => checkServers(2));
  } finally {
    if (saved === undefined) delete process.env.BENCH_SERVER_NODE;
    else process.env.BENCH_SERVER_NODE = saved;
  }
});

test('seat maps: once each on one process; past it, 4 per process on as many new connections', async (t) => {
  const paths = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    paths.push(req.url);
    res.end('{}');
  });
  server.on('connection', () => connections++);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise((r) => server.close(r)));
  const url = `http://127.0.0.1:${server.address().port}`;
  const tour = [{ id: '7' }, { id: '8' }];

  await openSeatMaps(url, tour, 2);
  assert.equal(paths.length, 16);
  assert.equal(connections, 16);
  assert.deepEqual(new Set(paths), new Set(['/api/v1/sessions/7/seatmap', '/api/v1/sessions/8/seatmap']));

  paths.length = 0;
  await openSeatMaps(url, tour, 1);
  assert.deepEqual(paths, ['/api/v1/sessions/7/seatmap', '/api/v1/sessions/8/seatmap']);
});
