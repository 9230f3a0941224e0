// What a V8 CPU profile says, in text: the server's busy time, the functions with the most self
// time, the same grouped by where the code lives (a server file, an npm package, a Node module),
// and the call tree down to a threshold of inclusive time. Every share is of the busy time
// (idle samples left out), so profiles of runs with more or less idle time compare.
//
// A profile comes from a scenario's server with
//   BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npm run bench [-- --scenario queue]
// (Node writes it when the server exits), then
//   node bench/cpuprofile.mjs /tmp/prof/CPU.*.cpuprofile [--top 30] [--tree 1] [--depth 14]
//     [--from-ms 20000 --to-ms 45000]   (only the samples in this window from the profile's start,
//                                         e.g. a sale's selling window, not the seeding before it)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from './lib.mjs';

/** V8's frame for the event loop waiting: not busy time, so left out of every share. */
const IDLE = '(idle)';

/** Where a frame's code lives: `server:<file under dist>`, `npm:<package>`, `node:<module>`, or V8's own name. */
export function placeOf(callFrame) {
  const url = callFrame.url ?? '';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 'node_modules/'.length).split('/');
    return `npm:${parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]}`;
  }
  const dist = url.indexOf('/server/dist/');
  if (dist >= 0) return `server:${url.slice(dist + '/server/dist/'.length)}`;
  if (url.startsWith('node:')) return url;
  return url ? path.basename(url) : callFrame.functionName || '(anonymous)';
}

/** A frame as one line: its function, file and line (1-based, as an editor shows it). */
export function frameName(callFrame) {
  const file = callFrame.url ? `${path.basename(callFrame.url)}:${callFrame.lineNumber + 1}` : '';
  return `${callFrame.functionName || '(anonymous)'}${file ? ` ${file}` : ''}`;
}

/**
 * Self time (µs) per node id, from the samples whose time falls in [fromMs, toMs) after the
 * profile's start. A sample's time is the sum of the deltas up to it; its weight is its own delta.
 */
function selfTimes(profile, fromMs, toMs) {
  const self = new Map();
  let t = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const d = profile.timeDeltas[i] ?? 0;
    t += d;
    const ms = t / 1000;
    if (ms < fromMs || ms >= toMs) continue;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + Math.max(0, d));
  }
  return self;
}

/**
 * The summary of one profile: busy and idle ms, and the top functions and places by self time,
 * and the call tree's nodes over `treeMinPct` of busy time (each with its depth, inclusive and
 * self share). Shares are percentages of busy time.
 */
export function summarize(
  profile,
  { top = 30, treeMinPct = 1, depth = 14, fromMs = 0, toMs = Infinity } = {},
) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = selfTimes(profile, fromMs, toMs);
  const add = (m, k, us) => m.set(k, (m.get(k) ?? 0) + us);
  const byFunction = new Map();
  const byPlace = new Map();
  let idle = 0;
  let busy = 0;
  for (const [id, us] of self) {
    const cf = nodes.get(id).callFrame;
    if (cf.functionName === IDLE) {
      idle += us;
      continue;
    }
    busy += us;
    add(byFunction, frameName(cf), us);
    add(byPlace, placeOf(cf), us);
  }
  const pct = (us) => (busy > 0 ? Number(((100 * us) / busy).toFixed(1)) : 0);
  const ranked = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, pct: pct(us) }));

  const inclusive = new Map();
  const incl = (n) => {
    let us = n.callFrame.functionName === IDLE ? 0 : (self.get(n.id) ?? 0);
    for (const c of n.children ?? []) us += incl(nodes.get(c));
    inclusive.set(n.id, us);
    return us;
  };
  const root = profile.nodes[0];
  incl(root);
  const tree = [];
  const walk = (n, d) => {
    if (d > depth || n.callFrame.functionName === IDLE || pct(inclusive.get(n.id)) < treeMinPct) return;
    if (n !== root)
      tree.push({
        depth: d - 1,
        name: frameName(n.callFrame),
        pct: pct(inclusive.get(n.id)),
        selfPct: pct(self.get(n.id) ?? 0),
      });
    const kids = (n.children ?? [])
      .map((c) => nodes.get(c))
      .sort((a, b) => inclusive.get(b.id) - inclusive.get(a.id));
    for (const c of kids) walk(c, d + 1);
  };
  walk(root, 0);
  return {
    busyMs: Math.round(busy / 1000),
    idleMs: Math.round(idle / 1000),
    functions: ranked(byFunction),
    places: ranked(byPlace),
    tree,
  };
}

/**
 * A profile reader's command line (bench/cpuprofile.mjs, bench/allocprofile.mjs): the profile's
 * file and its numeric options; without a file, the usage line and exit status 2.
 */
export function profileArgs(argv, usage) {
  const [file, ...options] = argv;
  if (!file || file.startsWith('--')) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  const args = parseArgs(options);
  return { file, opt: (name, def) => (args[name] === undefined ? def : Number(args[name])) };
}

function print(s) {
  const line = (x) => `${x.pct.toFixed(1).padStart(5)}  ${x.name}`;
  console.log(`busy ${s.busyMs} ms, idle ${s.idleMs} ms (shares below: % of busy)`);
  console.log('\nself time by function');
  s.functions.forEach((x) => console.log(line(x)));
  console.log('\nself time by place');
  s.places.forEach((x) => console.log(line(x)));
  console.log('\ncall tree (inclusive %, self %)');
  for (const x of s.tree)
    console.log(`${'  '.repeat(x.depth)}${x.pct.toFixed(1)} ${x.selfPct.toFixed(1)}  ${x.name}`);
}

function main(argv) {
  const { file, opt } = profileArgs(
    argv,
    'node bench/cpuprofile.mjs <file.cpuprofile> [--top N] [--tree PCT] [--depth N] [--from-ms MS --to-ms MS]',
  );
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  print(
    summarize(profile, {
      top: opt('top', 30),
      treeMinPct: opt('tree', 1),
      depth: opt('depth', 14),
      fromMs: opt('from-ms', 0),
      toMs: opt('to-ms', Infinity),
    }),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
