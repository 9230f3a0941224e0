import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { WindowCounter } from './window';
import type Redis from 'ioredis';
import { AppError } from '../errors';
import { ERRORS } from '@showtix/shared-types';
import { Keys } from '../redis/keys';

/** points per durationS for one dimension; 0 points turns the dimension off. */
export interface Limit {
  points: number;
  durationS: number;
}

export interface PathLimits {
  user: Limit;
  ip: Limit;
  device: Limit;
}

export interface Client {
  /** undefined for orders the server places itself (tests, tools). */
  ip: string | undefined;
  /** X-Device-Id sent by the mini-program (a random id kept on the device). */
  device: string | undefined;
}

/** A 429 that says when to come back (Retry-After, in whole seconds, at least 1). */
function retryLater(code: 'RATE_LIMITED' | 'HOLD_COOLDOWN', retryAfterMs: number): AppError {
  const s = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(
    code,
    429,
    true,
    ERRORS[code].message,
    { retryAfterS: s },
    { 'Retry-After': String(s) },
  );
}

export function rateLimited(retryAfterMs: number): AppError {
  return retryLater('RATE_LIMITED', retryAfterMs);
}

/** The hold cooldown (too many holds left to expire in a row): 429 with Retry-After. */
export function holdCooldown(retryAfterMs: number): AppError {
  return retryLater('HOLD_COOLDOWN', retryAfterMs);
}

/** The one settled promise every request within its limits gets back (nothing to allocate). */
export const WITHIN_LIMITS: Promise<void> = Promise.resolve();

/**
 * Request rates per user, per address and per device on one path (rate-limiter-flexible). On
 * Redis the limits are shared by all instances and the dimensions are consumed together in one
 * round trip (ioredis pipelines them); 'memory' keeps them per instance (WindowCounter), for the
 * waiting room's polls, which are many, cheap, and not worth a Redis round trip each. The first dimension used
 * up answers 429 with Retry-After.
 */
export class PathLimiter {
  /** The dimensions that are on, kept in Redis (store 'redis') ... */
  private readonly dims: { name: keyof PathLimits; limiter: RateLimiterRedis }[] = [];
  /** ... or in this instance's memory (store 'memory'). */
  private readonly counters: { name: keyof PathLimits; counter: WindowCounter }[] = [];
  private readonly inMemory: boolean;

  constructor(
    redis: Redis,
    keyPrefix: string,
    path: string,
    limits: PathLimits,
    store: 'redis' | 'memory' = 'redis',
  ) {
    this.inMemory = store === 'memory';
    for (const name of ['user', 'ip', 'device'] as const) {
      const l = limits[name];
      if (l.points <= 0) continue;
      const opts = {
        keyPrefix: new Keys(keyPrefix).rateLimit(path, name),
        points: l.points,
        duration: l.durationS,
      };
      if (this.inMemory)
        this.counters.push({ name, counter: new WindowCounter(l.points, l.durationS * 1000) });
      else this.dims.push({ name, limiter: new RateLimiterRedis({ storeClient: redis, ...opts }) });
    }
  }

  consume(userId: string | undefined, client: Client): Promise<void> {
    return this.inMemory ? this.consumeInMemory(userId, client) : this.consumeAll(userId, client);
  }

  /**
   * The purchase's, the join's and the poll's limits, on every request of the crowd: counted
   * without a promise per dimension (allSettled, RateLimiterRes), which were a tenth of a poll's
   * allocations (issue 14, 2026-12-04). The same counts and the same 429 as consumeAll.
   */
  private consumeInMemory(userId: string | undefined, client: Client): Promise<void> {
    let wait = 0;
    for (const { name, counter } of this.counters) {
      const subject = name === 'user' ? userId : client[name];
      if (subject) wait = Math.max(wait, counter.take(subject));
    }
    return wait > 0 ? Promise.reject(rateLimited(wait)) : WITHIN_LIMITS;
  }

  private async consumeAll(userId: string | undefined, client: Client): Promise<void> {
    const key = { user: userId, ip: client.ip, device: client.device };
    const results = await Promise.allSettled(
      this.dims.filter((d) => key[d.name]).map((d) => d.limiter.consume(key[d.name]!)),
    );
    let wait = 0;
    for (const r of results) {
      if (r.status === 'fulfilled') continue;
      // A store error (Redis down) lets the request through: the inventory scripts still guard.
      if (r.reason instanceof RateLimiterRes) wait = Math.max(wait, r.reason.msBeforeNext);
    }
    if (wait > 0) throw rateLimited(wait);
  }
}
