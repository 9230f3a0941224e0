import { startRedisCluster } from '../../../scripts/redis-cluster.mjs';

/** Starts the suite's own Redis Cluster; test workers inherit where it is through the env. */
export default async function setup() {
  const c = await startRedisCluster();
  process.env.TEST_REDIS_CLUSTER_NODES = c.nodes.join(',');
  process.env.TEST_REDIS_CLUSTER_DIR = c.dir;
}
