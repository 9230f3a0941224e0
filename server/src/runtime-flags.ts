/**
 * The Node.js flags every server process (ROLE=api, worker or all) is started with. They cannot
 * be set from inside: V8 sizes its heap before the first line of ours runs, and
 * `v8.setFlagsFromString` afterwards leaves the young generation as it was (tried). So each
 * launcher passes them: `npm start` (scripts/start.mjs), `npm start -w server` (its package.json,
 * checked by test/ops/runtime-flags.test.ts), `npm run cluster`, the benchmarks and the chaos
 * stack read this list from server/dist; a deployment passes them on its own command line or in
 * NODE_OPTIONS (docs/deploy.md). A process started without one logs a warning and serves anyway.
 */
export const SERVER_NODE_FLAGS: readonly string[] = [
  // The young generation's semi-space (Node's default is 16 MB). A purchase allocates a few KB
  // that die when it is answered; with 16 MB the in-flight requests of a sale still hold theirs
  // at each scavenge, which copies them and promotes many to the old generation. In a profiled
  // `npm run bench` (2026-12-06) the garbage collector took 12.6% of the server's busy time with
  // 16 MB and 5.0 / 4.6 / 4.5% with 32 / 64 / 128 MB. Against 16 MB in alternated pairs of that
  // bench, CPU per request was lower with 64 in three pairs of three, with 32 in two of three
  // (bench ab found 32 and 64 alike). 64 costs 3 x 48 MB more reserved memory per process.
  '--max-semi-space-size=64',
];

/** The flag's name: `--max-semi-space-size` of `--max-semi-space-size=64`. */
const nameOf = (flag: string): string => flag.split('=')[0].replace(/_/g, '-');

/**
 * The flags of SERVER_NODE_FLAGS this process was started without, by name (a deployment may
 * choose another value; only a missing flag is reported). `execArgv` and NODE_OPTIONS both count.
 */
export function missingNodeFlags(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const given = new Set([...execArgv, ...(nodeOptions ?? '').split(/\s+/)].map(nameOf));
  return SERVER_NODE_FLAGS.filter((f) => !given.has(nameOf(f)));
}
