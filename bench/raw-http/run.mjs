// The HTTP floor below the hello-world: a raw node:http server (bench/raw-http/server.mjs) under
// the benches' load (autocannon, 100 connections), round by round: its requests a second, its CPU
// per request split into user and kernel time (/proc), and its involuntary context switches per
// 1,000 answers (how often the scheduler took the CPU from it while it had work). It shows how
// much of a request's CPU the kernel's socket calls take on this machine, which a V8 profile
// misstates (README, Benchmarks). Run the whole under `chrt -b 0` to see the same without
// preemption on wake-up (the server inherits it). BENCH_SERVER_NODE_ARGS go to the server's Node
// (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" for the profile to hold against /proc).
// Usage: npm run build -w server && node bench/raw-http/run.mjs [--rounds 3 --seconds 5 --connections 100]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import {
  benchNodeArgs,
  cpuMeter,
  freePort,
  parseArgs,
  root,
  runMain,
  serverNode,
  startProcess,
} from '../lib.mjs';

const args = parseArgs(process.argv.slice(2));
const ROUNDS = Number(args.rounds ?? 3);
const SECONDS = Number(args.seconds ?? 5);
const CONNECTIONS = Number(args.connections ?? 100);

const involuntarySwitches = (pid) =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/nonvoluntary_ctxt_switches:\s+(\d+)/)[1]);

async function round() {
  const port = await freePort();
  // On the server's Node (BENCH_SERVER_NODE), as the hello-world runs.
  const server = startProcess(
    serverNode(),
    [...benchNodeArgs(), path.join(root, 'bench/raw-http/server.mjs')],
    {
      PORT: String(port),
    },
  );
  try {
    await new Promise((r) => setTimeout(r, 500));
    const url = `http://127.0.0.1:${port}/`;
    await autocannon({ url, connections: CONNECTIONS, duration: 1 }); // warm-up
    const pid = server.child.pid;
    const all = cpuMeter({ s: pid });
    const kernel = cpuMeter({ s: pid }, { kernel: true });
    const switches = involuntarySwitches(pid);
    const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
    const n = Math.max(1, r.requests.total);
    const [cpu, sys] = [all().s / n, kernel().s / n];
    return {
      rps: Math.round(r.requests.average),
      user_us: Number((cpu - sys).toFixed(1)),
      kernel_us: Number(sys.toFixed(1)),
      involuntary_switches_per_1000: Number((((involuntarySwitches(pid) - switches) * 1000) / n).toFixed(1)),
      errors: r.errors + r.non2xx,
    };
  } finally {
    await server.stop();
  }
}

async function main() {
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await round());
  console.log(JSON.stringify({ scenario: 'raw-http', connections: CONNECTIONS, seconds: SECONDS, rounds }));
}

runMain(main);
