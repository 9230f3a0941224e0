import Redis, { Cluster } from 'ioredis';
import type { Logger } from 'pino';
import { defineScripts, type ScriptedRedis } from './scripts';

/** How often the same connection error is logged at most (ioredis retries every few hundred ms). */
const ERROR_LOG_EVERY_MS = 10_000;
/** How long a closing connection waits for Redis to close its side before dropping it. */
const disconnectTimeoutMs = 200;

/**
 * Connection errors go to the log, not to stderr as ioredis' "Unhandled error event": they are
 * expected while Redis restarts or fails over (commands fail and are answered 503 meanwhile).
 * The same message is logged once per ERROR_LOG_EVERY_MS, with how many were skipped.
 */
function logErrors(client: Redis | Cluster, log: Logger | undefined): void {
  let last = '';
  let lastAt = 0;
  let skipped = 0;
  client.on('error', (err: Error) => {
    const now = Date.now();
    if (err.message === last && now - lastAt < ERROR_LOG_EVERY_MS) {
      skipped++;
      return;
    }
    log?.warn({ err: err.message, skipped }, 'Redis connection error');
    last = err.message;
    lastAt = now;
    skipped = 0;
  });
}

/**
 * One Redis (url) or a Redis Cluster (clusterNodes: seed "host:port"s, the rest is discovered).
 * Every script and multi-key command keeps its keys in one slot (the {s:<id>} hash tag, see
 * keys.ts), so the same code runs on both.
 */
export function createRedis(url: string, clusterNodes: string[] = [], log?: Logger): ScriptedRedis {
  if (clusterNodes.length) return createCluster(url, clusterNodes, log);
  // maxRetriesPerRequest: fail a purchase quickly rather than queueing it while Redis is down.
  // disconnectTimeoutMs: a client closed while Redis is unreachable would otherwise keep the
  // process alive for ioredis's default 2 s (its disconnect timer waits for a 'close' event the
  // refused socket already emitted): a shutdown, or a test worker, waits on nothing.
  const redis = new Redis(url, {
    maxRetriesPerRequest: 2,
    enableAutoPipelining: true,
    disconnectTimeout: disconnectTimeoutMs,
  });
  logErrors(redis, log);
  return defineScripts(redis);
}

/**
 * A master failover takes the cluster 3-4 s with cluster-node-timeout 2000 ms (the whole cluster
 * answers CLUSTERDOWN meanwhile). Commands wait it out (redirections retried every 200 ms, up to
 * 50 times) instead of failing: ioredis' defaults (16 x 100 ms) give up before the replica is
 * promoted. Credentials, if any, come from the URL's user and password.
 */
function createCluster(url: string, nodes: string[], log: Logger | undefined): ScriptedRedis {
  const u = new URL(url);
  const cluster = new Cluster(
    nodes.map((n) => {
      const [host, port] = n.split(':');
      return { host: host!, port: Number(port) };
    }),
    {
      enableAutoPipelining: true,
      retryDelayOnFailover: 200,
      retryDelayOnClusterDown: 200,
      retryDelayOnTryAgain: 200,
      maxRedirections: 50,
      redisOptions: {
        maxRetriesPerRequest: 20,
        disconnectTimeout: disconnectTimeoutMs,
        username: decodeURIComponent(u.username) || undefined,
        password: decodeURIComponent(u.password) || undefined,
      },
    },
  );
  logErrors(cluster, log);
  // ioredis' Cluster speaks the same command interface (Commander): scripts are defined on it
  // the same way and routed to the master of their keys' slot.
  return defineScripts(cluster as unknown as Redis);
}
