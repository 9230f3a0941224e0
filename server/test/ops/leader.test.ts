import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { Leadership } from '../../src/jobs/leader';
import { Scheduler } from '../../src/jobs/scheduler';
import { createRedis } from '../../src/redis/client';
import { Keys } from '../../src/redis/keys';
import type { ScriptedRedis } from '../../src/redis/scripts';
import { deleteKeys } from '../helpers/env';

const REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const LEASE_MS = 900;
const log = pino({ level: 'silent' });

/** A worker as far as jobs go: its own Redis connection, lease and scheduler, one singleton job. */
function worker(redis: ScriptedRedis, key: string) {
  const runs: number[] = [];
  const leader = new Leadership(redis, key, LEASE_MS, log);
  const scheduler = new Scheduler(log, leader);
  let shared = 0;
  scheduler.start([
    { name: 'order-expiry', intervalMs: 50, run: async () => void runs.push(Date.now()) },
    { name: 'outbox-relay', intervalMs: 50, run: async () => void shared++, everyInstance: true },
  ]);
  return { runs, leader, scheduler, shared: () => shared };
}

async function until(cond: () => boolean, ms: number): Promise<number> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - t0;
}

describe('job leadership', () => {
  const prefix = `tk_test_lead_${process.pid}_${randomBytes(4).toString('hex')}:`;
  const key = new Keys(prefix).jobsLeader();
  const cluster = process.env.TEST_REDIS_CLUSTER_NODES?.split(',') ?? [];
  const conns = [createRedis(REDIS, cluster), createRedis(REDIS, cluster), createRedis(REDIS, cluster)];
  afterAll(async () => {
    await Promise.all(conns.map((c) => c.quit().catch(() => undefined)));
    await deleteKeys(REDIS, prefix);
  });

  it('runs singleton jobs on one worker only; when the leader dies the other takes over within the lease', async () => {
    const a = worker(conns[0]!, key);
    await until(() => a.leader.isLeader, 2_000);
    const b = worker(conns[1]!, key);
    await new Promise((r) => setTimeout(r, 600));
    expect(a.runs.length).toBeGreaterThan(3);
    expect(b.runs).toEqual([]); // B only follows
    expect(b.shared()).toBeGreaterThan(3); // jobs of every instance still run there

    // A dies (kill -9: no release, no more renewals).
    a.leader.abandon();
    await a.scheduler.stop();
    const died = Date.now();
    const took = await until(() => b.runs.length > 0, LEASE_MS * 3);
    // The lease runs out at most LEASE_MS after A's last renewal; B asks every LEASE_MS/3.
    expect(took).toBeLessThanOrEqual(LEASE_MS + LEASE_MS / 3 + 300);
    expect(b.runs[0]! - died).toBeLessThanOrEqual(LEASE_MS + LEASE_MS / 3 + 300);
    await b.scheduler.stop();
  });

  it('a clean stop hands the lease over at once', async () => {
    const a = worker(conns[0]!, key);
    await until(() => a.leader.isLeader, 2_000);
    const b = worker(conns[1]!, key);
    await new Promise((r) => setTimeout(r, 200));
    await a.scheduler.stop(); // releases the lease
    const took = await until(() => b.leader.isLeader, LEASE_MS * 3);
    expect(took).toBeLessThanOrEqual(LEASE_MS / 3 + 200);
    await b.scheduler.stop();
  });

  // (single Redis only: a cut-off Cluster client keeps retrying its redirections for seconds)
  (cluster.length ? it.skip : it)(
    'a leader cut off from Redis stops leading once its lease ran out locally',
    async () => {
      const c = worker(conns[2]!, key);
      await until(() => c.leader.isLeader, 2_000);
      conns[2]!.disconnect(); // its renewals fail from now on
      await until(() => !c.leader.isLeader, LEASE_MS + 200);
      await c.scheduler.stop();
    },
  );
});
