import { stopRedisCluster } from '../../../scripts/redis-cluster.mjs';

export default async function teardown() {
  if (process.env.TEST_REDIS_CLUSTER_DIR) await stopRedisCluster(process.env.TEST_REDIS_CLUSTER_DIR);
}
