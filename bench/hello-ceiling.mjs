// The Koa hello-world every scenario's ratio is taken against, measured in the same run
// (bench/lib.mjs re-exports helloCeiling).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { timedLoop } from './closed-loop.mjs';
import { meteredServer } from './process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The ceiling a scenario is compared with: a Koa hello-world (bench/flash-sale/hello.mjs) under
 * the same connections, in the same run. Its req/s, and the CPU it and this load generator
 * spend per request. `env`: the hello-world's own settings (HELLO_REDIS_URL: the queue bench's
 * floor, the hello-world plus one Redis call). `client`: what sends the GETs, autocannon or the
 * 'closed-loop' the flash-sale bench sends its purchases through (closed-loop.mjs).
 */
export async function helloCeiling({ connections, seconds, pinCore, env = {}, client = 'autocannon' }) {
  const load =
    client === 'closed-loop'
      ? (url, s) => helloLoop(url, connections, s)
      : (url, s) => helloCannon(url, connections, s);
  // On the server's Node (BENCH_SERVER_NODE): a ratio compares the product with its runtime.
  const { result, cpu, kernel } = await meteredServer({
    script: path.join(root, 'bench/flash-sale/hello.mjs'),
    env,
    pinCore,
    seconds,
    load,
    loadgen: true,
  });
  const n = Math.max(1, result.requests);
  return {
    rps: result.rps,
    cpuUs: cpu.server / n,
    kernelUs: kernel.server / n,
    loadgenUs: cpu.loadgen / n,
  };
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
