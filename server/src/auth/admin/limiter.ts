import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type Redis from 'ioredis';
import { AppError } from '../../errors';
import type { AdminConfig } from '../../config/admin';
import { Keys } from '../../redis/keys';

/**
 * Failed-login limits on Redis, shared by every server instance: a few tries per username and
 * address (stops guessing one account), more per address alone (stops spraying many names).
 * A successful login gives its try back.
 */
export class LoginLimiter {
  private readonly byUserIp: RateLimiterRedis;
  private readonly byIp: RateLimiterRedis;

  constructor(redis: Redis, keyPrefix: string, cfg: AdminConfig) {
    const common = { storeClient: redis, duration: cfg.loginWindowS };
    this.byUserIp = new RateLimiterRedis({
      ...common,
      keyPrefix: new Keys(keyPrefix).adminLogin('user-ip'),
      points: cfg.loginFailsMax,
    });
    this.byIp = new RateLimiterRedis({
      ...common,
      keyPrefix: new Keys(keyPrefix).adminLogin('ip'),
      points: cfg.loginFailsPerIpMax,
    });
  }

  private static userKey(username: string, ip: string): string {
    return `${username.toLowerCase()}|${ip}`;
  }

  /**
   * Takes one try from both limits atomically (Redis INCR) BEFORE the password is checked, and
   * throws RATE_LIMITED (with Retry-After) once either is used up. Reading first and recording
   * after the check let 40 parallel guesses all reach argon2; a try taken up front cannot race.
   */
  async consume(username: string, ip: string): Promise<void> {
    const tries = await Promise.allSettled([
      this.byUserIp.consume(LoginLimiter.userKey(username, ip), 1),
      this.byIp.consume(ip, 1),
    ]);
    const refused = tries
      .map((t) => (t.status === 'rejected' ? t.reason : undefined))
      .filter((r) => r !== undefined);
    if (refused.length === 0) return;
    const over = refused.filter((r): r is RateLimiterRes => r instanceof RateLimiterRes);
    if (over.length < refused.length) throw refused.find((r) => !(r instanceof RateLimiterRes));
    throw limited(Math.max(...over.map((r) => r.msBeforeNext)));
  }

  /** A good password gives the tries back: only failures count against the limits. */
  async succeeded(username: string, ip: string): Promise<void> {
    await Promise.all([this.byUserIp.delete(LoginLimiter.userKey(username, ip)), this.byIp.reward(ip, 1)]);
  }
}

function limited(msBeforeNext: number): AppError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError(
    'RATE_LIMITED',
    429,
    true,
    `登录失败次数过多，请 ${Math.ceil(seconds / 60)} 分钟后再试`,
    undefined,
    {
      'Retry-After': String(seconds),
    },
  );
}
