// What a waiting-room join's durable record costs the server's CPU (server/src/queue/log.ts): the
// instance answers a join only once MySQL holds it, by group commit. This process plays the
// server's part alone, with the server's own QueueLog and writer pool on a database of its own:
// bursts of `--burst` records (the joins whose script replies arrived in one turn), two bursts in
// flight, and its CPU time (user and system, from process.cpuUsage) per record. Run it with two
// burst sizes to split the cost: per record = fixed / burst + marginal. No HTTP, no Redis: the
// rest of a join is measured by `--scenario queue` and `--scenario ab --cases join`.
// Last line: JSON, also written to bench/results/ (not with --smoke, a small run).
// Usage: npm run build -w server && node bench/queue/record-cost.mjs [--bursts 23,100 --records 40000 --rounds 3 --smoke]
import { dist, openBench, percentile, report, runMain, scenarioArgs } from '../lib.mjs';

const { args, smoke, num } = scenarioArgs();
const BURSTS = String(args.bursts ?? '23,100')
  .split(',')
  .map(Number);
const RECORDS = num('records', 40_000, 2_000);
const ROUNDS = num('rounds', 3, 1);
const SESSION_ID = '1';

async function main() {
  const { QueueLog } = dist('queue/log.js');
  const b = await openBench('record');
  try {
    await b.deps.writerDb.query('INSERT INTO queue_rooms (session_id) VALUES (?)', [SESSION_ID]);
    const log = new QueueLog(b.deps.writerDb, b.deps.log);
    let userId = 1;
    /** `n` records in bursts of `burst`, two in flight: the CPU µs per record. */
    const run = async (n, burst) => {
      const cpu = process.cpuUsage();
      const inflight = [];
      for (let i = 0; i < n; i += burst) {
        const records = Array.from({ length: burst }, () => {
          const user = userId++;
          return {
            sessionId: SESSION_ID,
            userId: String(user),
            place: user,
            idHash: null,
            joinedAt: new Date(),
            epoch: 0,
          };
        });
        inflight.push(Promise.all(records.map((r) => log.record(r))));
        if (inflight.length === 2) await inflight.shift();
      }
      await Promise.all(inflight);
      const used = process.cpuUsage(cpu);
      return Math.round(((used.user + used.system) / n) * 10) / 10;
    };
    const byBurst = {};
    for (const burst of BURSTS) await run(RECORDS / 4, burst); // the JIT's warm-up, not kept
    for (let r = 0; r < ROUNDS; r++)
      for (const burst of r % 2 ? [...BURSTS].reverse() : BURSTS)
        (byBurst[burst] ??= []).push(await run(RECORDS, burst));
    const median = (xs) =>
      percentile(
        [...xs].sort((x, y) => x - y),
        50,
      );
    const out = { scenario: 'record-cost', records: RECORDS, cpu_us_per_record: byBurst };
    if (BURSTS.length === 2) {
      // cost(burst) = fixed / burst + marginal, solved from the two bursts' medians.
      const [b1, b2] = BURSTS;
      const [c1, c2] = [median(byBurst[b1]), median(byBurst[b2])];
      const fixed = (c1 - c2) / (1 / b1 - 1 / b2);
      out.batch_fixed_cpu_us = Math.round(fixed);
      out.record_marginal_cpu_us = Math.round((c1 - fixed / b1) * 10) / 10;
    }
    out.at = new Date().toISOString();
    report(out, { save: !smoke, at: out.at });
  } finally {
    await b.close();
  }
}

runMain(main);
