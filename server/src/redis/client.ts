import Redis from 'ioredis';
import { defineScripts, type ScriptedRedis } from './scripts';

export function createRedis(url: string): ScriptedRedis {
  // maxRetriesPerRequest: fail a purchase quickly rather than queueing it while Redis is down.
  const redis = new Redis(url, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
  return defineScripts(redis);
}
