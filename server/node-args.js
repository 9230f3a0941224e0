// The V8 flags the server runs with, wherever it is started: `npm start` (scripts/start.mjs),
// `npm start -w server` (package.json, checked against this list by test/ops/node-args.test.ts),
// the distributed topology (scripts/cluster.mjs) and the benchmarks (bench/lib.mjs, which gives
// the Koa hello-world they compare with the same flags). docs/deploy.md says how to pass them.
//
// --max-semi-space-size=64 (MB; Node's default is 16): the server keeps large maps that every
// request adds young objects to (verified tokens, rate counters, refusal facts), and with a small
// young generation each scavenge copied and rescanned them 3 to 4 times as often. In issue 14's
// waiting-room runs (50,000 fans) scavenges took 3.3 s of GC time with the default and 1.9 s with
// 64 MB, and server CPU per poll fell from 292 to 182 µs (README, Benchmarks). It costs up to
// about 200 MB more memory per process (three semi-spaces).
module.exports = ['--max-semi-space-size=64'];
