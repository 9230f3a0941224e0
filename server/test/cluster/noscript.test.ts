import { createTestEnv, type TestEnv } from '../helpers/env';

/**
 * A node without the scripts: a replica promoted by a failover has an empty script cache (caches
 * are per node and not replicated), as does a restarted node. Every script call must still run,
 * exactly once. Before the fix the first call after the flush failed with NOSCRIPT (ioredis'
 * pipelines, which auto-pipelining uses for every call, believe a script loaded for a minute).
 */
let env: TestEnv;
beforeAll(async () => (env = await createTestEnv()));
afterAll(() => env.close());

it('a script runs on a node whose script cache is empty, once', async () => {
  const redis = env.deps.redis;
  const key = `${env.deps.keys.prefix}noscript:{lease}`;
  expect((await redis.leaderLease(key, 'a', 60_000, 'hold'))[0]).toBeDefined();
  const masters =
    'nodes' in redis ? (redis as unknown as { nodes(r: string): (typeof redis)[] }).nodes('master') : [redis];
  await Promise.all(masters.map((m) => m.script('FLUSH')));
  // 'b' is refused while 'a' holds the lease: the script ran (once) and read what 'a' wrote.
  const [, owner] = await redis.leaderLease(key, 'b', 60_000, 'hold');
  expect(owner).toBe('a');
  for (let i = 0; i < 5; i++) expect((await redis.leaderLease(key, 'b', 60_000, 'hold'))[1]).toBe('a');
  await redis.del(key);
});
