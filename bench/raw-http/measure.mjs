// One measurement of the raw node:http server (server.mjs) under autocannon: its requests a
// second, its CPU per request split into user and kernel time (/proc), and its involuntary
// context switches per 1,000 answers, for one shape of request. Used by run.mjs and by the
// flash-sale bench (its raw_purchase_cpu_us: what Node's HTTP alone costs a purchase request).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { benchNodeArgs, cpuMeter, freePort, root, serverNode, startProcess } from '../lib.mjs';

const involuntarySwitches = (pid) =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/nonvoluntary_ctxt_switches:\s+(\d+)/)[1]);

// A fan's session token as the server signs it (HS256 over {sub, roles, iat, exp}): its length
// is what matters to the HTTP parser, not its signature, which nothing here checks.
const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
const iat = Math.floor(Date.now() / 1000);
const token = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '1000000000123', roles: ['fan'], iat, exp: iat + 7200 })}.${'x'.repeat(43)}`;
let key = 0;

/**
 * autocannon's request options for each shape: `get`, a waiting-room poll's GET; `purchase`, the
 * flash sale's POST with the headers bench/lib.mjs postOrders sends and a two-seat body.
 */
const SHAPES = {
  get: {},
  purchase: {
    method: 'POST',
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${token}`,
            'idempotency-key': `raw-${key++}`,
          },
          body: JSON.stringify({
            sessionId: '1000000000000000001',
            seatIds: ['1000000000000000123', '1000000000000000124'],
          }),
        }),
      },
    ],
  },
};

/** The raw server on the servers' Node (BENCH_SERVER_NODE, BENCH_SERVER_NODE_ARGS), as the hello-world runs. */
export async function measureRaw(shape, { connections = 100, seconds = 5 } = {}) {
  const port = await freePort();
  const server = startProcess(
    serverNode(),
    [...benchNodeArgs(), path.join(root, 'bench/raw-http/server.mjs')],
    {
      PORT: String(port),
    },
  );
  try {
    await new Promise((r) => setTimeout(r, 500));
    const load = { url: `http://127.0.0.1:${port}/`, connections, ...SHAPES[shape] };
    await autocannon({ ...load, duration: 1 }); // warm-up
    const pid = server.child.pid;
    const all = cpuMeter({ s: pid });
    const kernel = cpuMeter({ s: pid }, { kernel: true });
    const switches = involuntarySwitches(pid);
    const r = await autocannon({ ...load, duration: seconds });
    const n = Math.max(1, r.requests.total);
    const [cpu, sys] = [all().s / n, kernel().s / n];
    // The purchase shape is answered 409, as most of a sale is: not an error.
    const expected = shape === 'get' ? 0 : (r.statusCodeStats?.['409']?.count ?? 0);
    return {
      rps: Math.round(r.requests.average),
      user_us: Number((cpu - sys).toFixed(1)),
      kernel_us: Number(sys.toFixed(1)),
      involuntary_switches_per_1000: Number((((involuntarySwitches(pid) - switches) * 1000) / n).toFixed(1)),
      errors: r.errors + r.non2xx - expected,
    };
  } finally {
    await server.stop();
  }
}
