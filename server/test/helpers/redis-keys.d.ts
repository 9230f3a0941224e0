import type Redis from 'ioredis';

/** Deletes every key under the prefix on one Redis, SCAN by SCAN (never FLUSHALL: others share it). */
export function deletePrefixed(redis: Redis, prefix: string): Promise<void>;
