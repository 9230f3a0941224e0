// The Koa hello-world every scenario's ratio is taken against, measured in the same run
// (bench/lib.mjs re-exports helloCeiling).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { timedLoop } from './closed-loop.mjs';
import { cpuMeter } from './cpu.mjs';
import { freePort, serverNode, startProcess } from './process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The ceiling a scenario is compared with: a Koa hello-world (bench/flash-sale/hello.mjs) under
 * the same connections, in the same run. Its req/s, and the CPU it and this load generator
 * spend per request. `env`: the hello-world's own settings (HELLO_REDIS_URL: the queue bench's
 * floor, the hello-world plus one Redis call). `client`: what sends the GETs, autocannon or the
 * 'closed-loop' the flash-sale bench sends its purchases through (closed-loop.mjs).
 */
export async function helloCeiling({ connections, seconds, pinCore, env = {}, client = 'autocannon' }) {
  const port = await freePort();
  // On the server's Node (BENCH_SERVER_NODE): a ratio compares the product with its runtime.
  const hello = startProcess(
    serverNode(),
    [path.join(root, 'bench/flash-sale/hello.mjs')],
    { ...env, PORT: String(port) },
    { pinCore },
  );
  try {
    await new Promise((r) => setTimeout(r, 700));
    const url = `http://127.0.0.1:${port}/`;
    const load =
      client === 'closed-loop'
        ? (s) => helloLoop(url, connections, s)
        : (s) => helloCannon(url, connections, s);
    await load(1); // warm-up
    const meter = cpuMeter({ hello: hello.child.pid, loadgen: process.pid });
    const kernelMeter = cpuMeter({ hello: hello.child.pid }, { kernel: true });
    const { rps, requests } = await load(seconds);
    const cpu = meter();
    const kernel = kernelMeter();
    const n = Math.max(1, requests);
    return {
      rps,
      cpuUs: cpu.hello / n,
      kernelUs: kernel.hello / n,
      loadgenUs: cpu.loadgen / n,
    };
  } finally {
    await hello.stop();
  }
}

async function helloCannon(url, connections, seconds) {
  const res = await autocannon({ url, connections, duration: seconds });
  return { rps: res.requests.average, requests: res.requests.total };
}

/** The hello-world's GETs through the flash-sale bench's closed loop (closed-loop.mjs); any failure throws. */
async function helloLoop(url, connections, seconds) {
  const r = await timedLoop({
    url,
    connections,
    seconds,
    next: () => ({ method: 'GET', path: '/' }),
    ok: (status) => status === 200,
  });
  if (r.wrong || r.failed) throw new Error(`hello-world: ${r.wrong} answers not 200, ${r.failed} unanswered`);
  return { rps: r.rps, requests: r.answered };
}
