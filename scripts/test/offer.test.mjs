// bench/overload/offer.mjs: an overload offer shared among processes, against a stand-in HTTP
// server that notes every request: each process takes every n-th request with its own buyers,
// no request is sent twice, every answer comes back as a sample, and the processes' CPU and
// loop delay are reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { offerFromProcesses } from '../../bench/overload/offer.mjs';

const tour = [{ id: '1', zoneId: '9', seatIds: ['a', 'b', 'c', 'd', 'e'] }];
const tokens = Array.from({ length: 6 }, (_, i) => `t${i}`);

test('two processes share the offer: every n-th request, their own buyers, every answer back', async () => {
  const seen = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const i = Number(/-(\d+)$/.exec(req.headers['idempotency-key'])[1]);
      seen.push({ i, token: req.headers.authorization.slice('Bearer '.length) });
      // Every third request refused as a saturated instance refuses, with Retry-After.
      if (seen.length % 3 === 0) res.writeHead(503, { 'Retry-After': '1' }).end('{}');
      else res.writeHead(201, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${server.address().port}`;
    const o = { connections: 4, overallRate: 100, duration: 1 };
    const r = await offerFromProcesses({ url, tour, tokens, o, tag: 'test', processes: 2 });

    assert.ok(seen.length > 20, `only ${seen.length} requests`);
    assert.equal(new Set(seen.map((s) => s.i)).size, seen.length, 'a request was sent twice');
    // Process c sends i = c, c + 2, ...: its buyers are tokens c, c + 2, ... in turn.
    for (const { i, token } of seen) {
      const share = tokens.filter((_, k) => k % 2 === i % 2);
      assert.equal(token, share[Math.floor(i / 2) % share.length]);
    }
    for (const c of [0, 1])
      assert.ok(
        seen.some((s) => s.i % 2 === c),
        `process ${c} sent nothing`,
      );

    // autocannon stops at the end of the duration without the answers still in flight (at most
    // one per connection): the rest all came back, the refusals with their Retry-After seen.
    assert.ok(r.samples.length <= seen.length && r.samples.length >= seen.length - o.connections);
    const refused = r.samples.filter((s) => s[1] === 503);
    assert.ok(refused.length >= Math.floor(seen.length / 3) - o.connections, `${refused.length} refusals`);
    assert.ok(
      refused.every((s) => s[2] === true),
      'Retry-After not seen',
    );
    assert.equal(r.errors, 0);
    assert.ok(
      r.cpuUs > 0 && r.seconds >= 0.9 && r.seconds < 5,
      JSON.stringify({ cpu: r.cpuUs, s: r.seconds }),
    );
    assert.ok(Number.isFinite(r.lagP99Ms) && r.lagP99Ms >= 0 && r.lagMaxMs >= r.lagP99Ms);
  } finally {
    await new Promise((r) => server.close(r));
  }
});

/** This process's offering children (offer-child.mjs), from /proc. */
function offerChildren() {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        const ppid = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1];
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return Number(ppid) === process.pid && cmd.includes('offer-child.mjs');
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
}

test(
  'a process killed mid-offer rejects the offer at once, and the other is stopped',
  { timeout: 30_000 },
  async () => {
    let killed;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(201).end('{}'));
      if (killed === undefined) {
        [killed] = offerChildren();
        if (killed !== undefined) process.kill(killed, 'SIGKILL');
      }
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${server.address().port}`;
      const o = { connections: 4, overallRate: 100, duration: 10 };
      // Bounded: an offer that waited forever for the killed process would hang the suite.
      let timer;
      const waited = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('the offer still waits for the killed process')), 15_000);
      });
      try {
        await assert.rejects(
          Promise.race([offerFromProcesses({ url, tour, tokens, o, tag: 'killed', processes: 2 }), waited]),
          /SIGKILL/,
        );
      } finally {
        clearTimeout(timer);
      }
      // The survivor was told to stop: none is left offering.
      for (let i = 0; i < 50 && offerChildren().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(offerChildren(), []);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  },
);
