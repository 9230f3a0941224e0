// What a V8 sampling heap profile says, in text: the bytes allocated while it sampled, per request
// when told how many requests it covered, by function and by where the code lives (a server
// file, an npm package, a Node module), and the call tree down to a threshold. A profile written
// by bench/alloc-sampling.cjs counts what the garbage collector has freed since, so its total is
// what was allocated, not what is still held.
//
//   node bench/allocprofile.mjs <file.heapprofile> [--requests N] [--top 30] [--tree 2] [--depth 14]
//
// A V8 frame's allocations include what it allocated in functions V8 inlined into it, as in a CPU
// profile's self time.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { frameName, placeOf, profileArgs } from './cpuprofile.mjs';

/**
 * The summary of one profile (its `head` node tree): total bytes, and bytes per request when
 * `requests` is given; the top functions and places by their own allocations, and the tree's
 * nodes over `treeMinPct` of the total. `bytes` are per request when `requests` is given.
 */
export function summarizeAlloc(profile, { requests, top = 30, treeMinPct = 2, depth = 14 } = {}) {
  const per = requests ? 1 / requests : 1;
  const byFunction = new Map();
  const byPlace = new Map();
  const add = (m, k, b) => m.set(k, (m.get(k) ?? 0) + b);
  const inclusive = new Map();
  const visit = (n) => {
    if (n.selfSize) {
      add(byFunction, frameName(n.callFrame), n.selfSize);
      add(byPlace, placeOf(n.callFrame), n.selfSize);
    }
    let b = n.selfSize;
    for (const c of n.children) b += visit(c);
    inclusive.set(n, b);
    return b;
  };
  const total = visit(profile.head);
  const pct = (b) => (total > 0 ? Number(((100 * b) / total).toFixed(1)) : 0);
  const ranked = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, b]) => ({ name, bytes: Math.round(b * per), pct: pct(b) }));
  const tree = [];
  const walk = (n, d) => {
    if (d > depth || pct(inclusive.get(n)) < treeMinPct) return;
    if (n !== profile.head)
      tree.push({ depth: d - 1, name: frameName(n.callFrame), pct: pct(inclusive.get(n)) });
    for (const c of [...n.children].sort((a, b) => inclusive.get(b) - inclusive.get(a))) walk(c, d + 1);
  };
  walk(profile.head, 0);
  return {
    bytes: Math.round(total * per),
    perRequest: Boolean(requests),
    functions: ranked(byFunction),
    places: ranked(byPlace),
    tree,
  };
}

function print(s) {
  const unit = s.perRequest ? 'bytes per request' : 'bytes';
  const line = (x) => `${String(x.bytes).padStart(9)}  ${x.pct.toFixed(1).padStart(5)}%  ${x.name}`;
  console.log(`allocated: ${s.bytes} ${unit}`);
  console.log(`\nown allocations by function (${unit}, share)`);
  s.functions.forEach((x) => console.log(line(x)));
  console.log(`\nown allocations by place (${unit}, share)`);
  s.places.forEach((x) => console.log(line(x)));
  console.log('\ncall tree (inclusive share)');
  for (const x of s.tree) console.log(`${'  '.repeat(x.depth)}${x.pct.toFixed(1)}  ${x.name}`);
}

function main(argv) {
  const { file, opt } = profileArgs(
    argv,
    'node bench/allocprofile.mjs <file.heapprofile> [--requests N] [--top N] [--tree PCT] [--depth N]',
  );
  print(
    summarizeAlloc(JSON.parse(readFileSync(file, 'utf8')), {
      requests: opt('requests', undefined),
      top: opt('top', 30),
      treeMinPct: opt('tree', 2),
      depth: opt('depth', 14),
    }),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
