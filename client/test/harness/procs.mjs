/**
 * The browser's processes as Linux shows them (/proc): which processes this one started, what
 * kind each Chromium process is, and the CPU each has used. The seat-map benchmark reports the
 * browser's CPU per page load by kind, and scripts/test/chromium-setup.test.mjs checks that a
 * page starts no top-chrome WebUI renderer (see scripts/lib/chromium.json).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

let ticksPerSecond;
const clockTicks = () =>
  (ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100);

/**
 * A process's arguments. Chromium's zygote children rewrite their command line as one string
 * with spaces instead of NULs, so split on both (a flag never holds a space).
 */
const argvOf = (pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]+/);

/** Fields of /proc/<pid>/stat after the command name (index 0 is the state). */
const statOf = (pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');

/** Every process below `root` (children, grandchildren...): pid, ppid, argv, cpuMs (user + system). */
export function descendants(root = process.pid) {
  const procs = [];
  for (const pid of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = statOf(pid);
      const cpuMs = ((Number(stat[11]) + Number(stat[12])) * 1000) / clockTicks();
      procs.push({ pid: Number(pid), ppid: Number(stat[1]), argv: argvOf(pid), cpuMs });
    } catch {
      // gone while we looked
    }
  }
  const mine = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs)
      if (mine.has(p.ppid) && !mine.has(p.pid)) {
        mine.add(p.pid);
        grew = true;
      }
  }
  return procs.filter((p) => p.pid !== root && mine.has(p.pid));
}

/** What a Chromium process is: browser, renderer, top-chrome-webui, gpu-process, utility, zygote. */
export function chromiumKind(argv) {
  if (argv.includes('--top-chrome-webui')) return 'top-chrome-webui';
  const type = argv.find((a) => a.startsWith('--type='));
  return type ? type.slice('--type='.length) : 'browser';
}

/** The Chromium processes below this one. */
export const chromiumProcesses = () => descendants().filter((p) => p.argv[0].includes('chrom'));

/** CPU ms per Chromium process (by pid) now, for cpuSince. */
export function chromiumCpu() {
  return new Map(chromiumProcesses().map((p) => [p.pid, { kind: chromiumKind(p.argv), cpuMs: p.cpuMs }]));
}

/**
 * CPU ms each kind of Chromium process used since `before` (a chromiumCpu()): read it before a
 * page's context closes, since a renderer that has exited takes its count with it.
 */
export function cpuSince(before) {
  const byKind = {};
  for (const [pid, now] of chromiumCpu()) {
    const used = now.cpuMs - (before.get(pid)?.cpuMs ?? 0);
    byKind[now.kind] = (byKind[now.kind] ?? 0) + used;
  }
  return byKind;
}
