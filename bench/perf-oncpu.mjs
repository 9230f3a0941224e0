// What an on-CPU profile says of one process, in text: where its main thread's CPU time went,
// counted only while it ran. A V8 profile (bench/cpuprofile.mjs) samples the JavaScript thread
// whether it runs or waits, so a socket write during which the scheduler ran MariaDB or Redis in
// its stead counts as the server's `writev`; perf's cpu-clock samples count CPU time only.
//
// Needs perf (Debian's linux-perf); no hardware counters: its software clock works in a VM. A
// profile of a scenario, the whole machine at once (server, MariaDB, Redis, load generator):
//   BENCH_SERVER_NODE_ARGS=--perf-basic-prof perf record -a -g -F 997 -o /tmp/perf.data -- \
//     node bench/flash-sale/run.mjs
// then, for the process whose /tmp/perf-<pid>.map is the largest (the server's JIT code):
//   node bench/perf-oncpu.mjs /tmp/perf.data <pid> [--top 30] [--time 40%-70%]
// (--time: perf script's window, here the middle of the run, past the server's start-up.)
// Prints the samples' split by what ran (the kernel, V8's and Node's C++, V8's builtins, JIT
// code, libc), the symbols with the most samples, and, with -g, each sample given to its nearest
// JavaScript frame: a builtin, V8's runtime or a system call counts for the function that called
// it. JIT addresses are resolved from the map file as it stood at the end: code moved by the
// garbage collector may be named after code that was there before, so trust only large shares.
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const JIT = /\(\/tmp\/perf-\d+\.map\)$/;

/** What kind of code a frame line of `perf script` (`<addr> <symbol> (<dso>)`) ran. */
export function kindOf(frame) {
  if (frame.endsWith('([kernel.kallsyms])')) return 'kernel';
  if (JIT.test(frame)) return 'jit';
  if (/\(\/[^)]*\/libc\.so[^)]*\)$/.test(frame)) return 'libc';
  if (/\(\/[^)]*\/node\)$/.test(frame)) return /^Builtins_/.test(symbolOf(frame)) ? 'builtins' : 'node';
  return 'other';
}

/** The symbol of a frame line, without its address and dso; a JIT frame's without V8's tier mark. */
export function symbolOf(frame) {
  const s = frame.replace(/^[0-9a-f]+ /, '').replace(/ \([^()]*\)$/, '');
  return JIT.test(frame) ? s.replace(/^JS:[*^~+]?/, '').replace(/ \S*\/(server|node_modules)\//, ' $1/') : s;
}

/**
 * The samples of `perf script -F tid,ip,sym,dso` of thread `tid`, tallied. With call chains
 * (recorded with -g) a sample is the thread id on a line of its own, then one frame a line (each
 * indented by a tab), the leaf first, and a blank line; without, it is one line: the thread id, then the leaf's frame.
 */
export function tally(text, tid) {
  const t = { samples: 0, kinds: new Map(), leaves: new Map(), nearestJs: new Map() };
  const add = (m, k) => m.set(k, (m.get(k) ?? 0) + 1);
  const sample = (frames) => {
    t.samples++;
    add(t.kinds, kindOf(frames[0]));
    add(t.leaves, symbolOf(frames[0]));
    if (frames.length < 2) return;
    const js = frames.find((f) => JIT.test(f));
    add(t.nearestJs, js ? symbolOf(js) : `(no JavaScript frame: ${kindOf(frames[0])})`);
  };
  let chain; // the frames of the sample being read, when it is this thread's
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (raw.startsWith('\t')) {
      if (line) chain?.push(line); // a frame of a call chain
      continue;
    }
    if (chain?.length) sample(chain);
    chain = undefined;
    const head = /^(\d+)\s*(.*)$/.exec(line); // a sample's first line, or blank between chains
    if (!head || head[1] !== String(tid)) continue;
    if (head[2]) sample([head[2]]);
    else chain = [];
  }
  if (chain?.length) sample(chain);
  return t;
}

function print(t, top) {
  const pct = (n) => ((100 * n) / t.samples).toFixed(1).padStart(5);
  const rows = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  console.log(`${t.samples} samples of the main thread (shares below: % of them)`);
  console.log(
    `\nwhat ran\n${rows(t.kinds)
      .map(([k, n]) => `${pct(n)}  ${k}`)
      .join('\n')}`,
  );
  console.log(
    `\nsymbols\n${rows(t.leaves)
      .map(([k, n]) => `${pct(n)}  ${k}`)
      .join('\n')}`,
  );
  if (t.nearestJs.size > 1)
    console.log(
      `\nnearest JavaScript frame\n${rows(t.nearestJs)
        .map(([k, n]) => `${pct(n)}  ${k}`)
        .join('\n')}`,
    );
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string' }, time: { type: 'string' } },
  });
  const [data, pid] = positionals;
  if (!data || !pid) throw new Error('usage: node bench/perf-oncpu.mjs <perf.data> <pid> [--top 30]');
  const window = values.time ? ['--time', values.time] : [];
  const text = execFileSync('perf', ['script', '-i', data, '--pid', pid, ...window, '-F', 'tid,ip,sym,dso'], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  print(tally(text, pid), Number(values.top ?? 30));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
