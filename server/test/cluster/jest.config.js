/**
 * The Redis Cluster suite: a private Cluster (3 masters + 3 replicas, scripts/redis-cluster.mjs)
 * is started once for the run; every test env then uses it (TEST_REDIS_CLUSTER_NODES). It runs
 * the suites that exercise every Lua script and multi-key path, and a master failover mid-sale.
 * One file at a time: the failover test kills a master of the shared Cluster.
 */
const base = require('../../jest.config.js');

module.exports = {
  ...base,
  rootDir: '../..',
  roots: ['<rootDir>/test'],
  testPathIgnorePatterns: ['/node_modules/'],
  testMatch: [
    '<rootDir>/test/inventory.scripts.test.ts', // lockSeats, takeZone, confirm, release, retake
    '<rootDir>/test/queue.test.ts', // queueJoin, queueStatus, queueOpen, queueAdmit, the draw
    '<rootDir>/test/queue.durable.test.ts', // the waiting room rebuilt from MySQL (MULTI of its keys)
    '<rootDir>/test/rebuild.test.ts', // MULTI of every session key, states pipeline
    '<rootDir>/test/orders.api.test.ts', // the purchase path, rate limiter, risk counters
    '<rootDir>/test/admin/auth.test.ts', // admin login limiter
    '<rootDir>/test/ops/leader.test.ts', // leaderLease
    '<rootDir>/test/ops/invalidation.test.ts', // pub/sub across instances, dashboard pipeline
    '<rootDir>/test/cluster/**/*.test.ts',
  ],
  globalSetup: '<rootDir>/test/cluster/setup.mjs',
  globalTeardown: '<rootDir>/test/cluster/teardown.mjs',
  maxWorkers: 1,
  // Every command takes a Cluster hop more; the waiting room's 100,000-fan test needs the room.
  testTimeout: 300_000,
};
