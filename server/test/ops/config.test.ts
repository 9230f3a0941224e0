import { loadConfig } from '../../src/config';
import { refusesToStartWith } from '../helpers/config';

describe('configuration of the distributed pieces', () => {
  it('defaults: one Redis, classic queues, a 10 s drain and lease', () => {
    const c = loadConfig({ NODE_ENV: 'test' });
    expect(c.redisClusterNodes).toEqual([]);
    expect(c.amqpQueueType).toBe('classic');
    expect(c.shutdownDrainMs).toBe(10_000);
    expect(c.leaderLeaseMs).toBe(10_000);
    expect(c.migrateLockTimeoutS).toBe(300);
  });

  it('reads Redis Cluster seed nodes', () => {
    const c = loadConfig({ NODE_ENV: 'test', REDIS_CLUSTER_NODES: '10.0.0.1:7001,redis-2.internal:7002' });
    expect(c.redisClusterNodes).toEqual(['10.0.0.1:7001', 'redis-2.internal:7002']);
  });

  refusesToStartWith([
    ['REDIS_CLUSTER_NODES', '10.0.0.1'],
    ['REDIS_CLUSTER_NODES', 'redis://10.0.0.1:7001'],
    ['REDIS_CLUSTER_NODES', '10.0.0.1:7001,'],
    ['AMQP_QUEUE_TYPE', 'stream'],
    ['LEADER_LEASE_MS', '50'],
    ['SHUTDOWN_DRAIN_MS', '-1'],
    ['ROLE', 'scheduler'],
    ['MYSQL_REPLICA_URL', 'mysql://10.0.0.2:3306'],
    ['MYSQL_REPLICA_MAX_LAG_MS', '-5'],
  ]);

  it('a worker without its jobs refuses to start; a replica must be of the same database', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', ROLE: 'worker', JOBS_ENABLED: 'false' })).toThrow(
      /ROLE=worker with JOBS_ENABLED=false/,
    );
    expect(() =>
      loadConfig({
        NODE_ENV: 'test',
        MYSQL_URL: 'mysql://root@db1:3306/showtix',
        MYSQL_REPLICA_URL: 'mysql://root@db2:3306/other',
      }),
    ).toThrow(/same database/);
    const c = loadConfig({
      NODE_ENV: 'test',
      ROLE: 'api',
      MYSQL_URL: 'mysql://root@db1:3306/showtix',
      MYSQL_REPLICA_URL: 'mysql://reader:pw@db2:3306/showtix',
    });
    expect(c.role).toBe('api');
    expect(c.mysqlReplicaUrl).toBe('mysql://reader:pw@db2:3306/showtix');
    expect(c.mysqlReplicaMaxLagMs).toBe(1000);
  });
});
