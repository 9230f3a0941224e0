// The HTTP floor below the hello-world: a raw node:http server (bench/raw-http/server.mjs) under
// the flash-sale bench's load (its closed loop, 100 connections), round by round and for two shapes of request,
// alternated: `get` (a waiting-room poll's GET and answer) and `purchase` (the flash sale's
// POST, with its headers and a seat purchase's body, read and parsed, answered with a refusal):
// its requests a second, its CPU per request split into user and kernel time (/proc), and its
// involuntary context switches per 1,000 answers (how often the scheduler took the CPU from it
// while it had work). The purchase shape is what the purchase route's floor (the flash-sale
// bench's floor_cpu_us) costs before any code of ours runs. It shows how much of a request's CPU
// the kernel's socket calls take on this machine, which a V8 profile misstates (docs/benchmarks.md). Run the whole under `chrt -b 0` to see the same without
// preemption on wake-up (the server inherits it). BENCH_SERVER_NODE_ARGS go to the server's Node
// (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" for the profile to hold against /proc).
// Usage: npm run build -w server && node bench/raw-http/run.mjs [--rounds 3 --seconds 5 --connections 100]
import { parseArgs, runMain } from '../lib.mjs';
import { measureRaw } from './measure.mjs';

const args = parseArgs(process.argv.slice(2));
const ROUNDS = Number(args.rounds ?? 3);
const SECONDS = Number(args.seconds ?? 5);
const CONNECTIONS = Number(args.connections ?? 100);

/** Both shapes, in alternating order round by round (the machine's speed drifts). */
async function round(i) {
  const order = i % 2 === 0 ? ['get', 'purchase'] : ['purchase', 'get'];
  const out = {};
  for (const shape of order)
    out[shape] = await measureRaw(shape, { connections: CONNECTIONS, seconds: SECONDS });
  return out;
}

async function main() {
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await round(i));
  console.log(JSON.stringify({ scenario: 'raw-http', connections: CONNECTIONS, seconds: SECONDS, rounds }));
}

runMain(main);
