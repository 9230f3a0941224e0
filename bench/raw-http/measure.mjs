// One measurement of the raw node:http server (server.mjs) through the flash-sale bench's closed
// loop (closed-loop.mjs, as its purchases and hello-world are sent): its requests a second, its
// CPU per request split into user and kernel time (/proc), and its involuntary context switches
// per 1,000 answers, for one shape of request. Used by run.mjs and by the flash-sale bench (its
// raw_purchase_cpu_us: what Node's HTTP alone costs a purchase request). Until 2026-12-07 it
// was sent through autocannon.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { timedLoop } from '../closed-loop.mjs';
import { benchNodeArgs, meteredServer, purchaseRequest, root } from '../lib.mjs';

const involuntarySwitches = (pid) =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/nonvoluntary_ctxt_switches:\s+(\d+)/)[1]);

// A fan's session token as the server signs it (HS256 over {sub, roles, iat, exp}): its length
// is what matters to the HTTP parser, not its signature, which nothing here checks.
const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
const iat = Math.floor(Date.now() / 1000);
const token = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '1000000000123', roles: ['fan'], iat, exp: iat + 7200 })}.${'x'.repeat(43)}`;
const BODY = JSON.stringify({
  sessionId: '1000000000000000001',
  seatIds: ['1000000000000000123', '1000000000000000124'],
});

/**
 * Each shape's request and the status it is answered with: `get`, a waiting-room poll's GET
 * (200); `purchase`, the flash sale's POST (bench/lib.mjs purchaseRequest) with a two-seat body,
 * refused 409 as most of a sale is.
 */
const SHAPES = {
  get: { request: () => ({ method: 'GET', path: '/' }), status: 200 },
  purchase: { request: (i) => purchaseRequest(token, `raw-${i}`, BODY), status: 409 },
};

/** The raw server on the servers' Node (BENCH_SERVER_NODE, BENCH_SERVER_NODE_ARGS), as the hello-world runs. */
export async function measureRaw(shape, { connections = 100, seconds = 5 } = {}) {
  const { request, status } = SHAPES[shape];
  const {
    result: r,
    cpu,
    kernel,
    extra: switched,
  } = await meteredServer({
    script: path.join(root, 'bench/raw-http/server.mjs'),
    nodeArgs: benchNodeArgs(),
    seconds,
    load: (url, s) => timedLoop({ url, connections, seconds: s, next: request, ok: (x) => x === status }),
    around: (pid) => {
      const before = involuntarySwitches(pid);
      return () => involuntarySwitches(pid) - before;
    },
  });
  const n = Math.max(1, r.answered + r.failed);
  const [all, sys] = [cpu.server / n, kernel.server / n];
  return {
    rps: Math.round(r.rps),
    user_us: Number((all - sys).toFixed(1)),
    kernel_us: Number(sys.toFixed(1)),
    involuntary_switches_per_1000: Number(((switched * 1000) / n).toFixed(1)),
    errors: r.wrong + r.failed,
  };
}
