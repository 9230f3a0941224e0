import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type Redis from 'ioredis';
import { AppError } from '../../http/errors';
import type { AdminConfig } from '../config';

/**
 * Failed-login limits on Redis, shared by every server instance: a few tries per username and
 * address (stops guessing one account), more per address alone (stops spraying many names).
 * A successful login clears the username+address count.
 */
export class LoginLimiter {
  private readonly byUserIp: RateLimiterRedis;
  private readonly byIp: RateLimiterRedis;

  constructor(redis: Redis, keyPrefix: string, cfg: AdminConfig) {
    const common = { storeClient: redis, duration: cfg.loginWindowS };
    this.byUserIp = new RateLimiterRedis({
      ...common,
      keyPrefix: `${keyPrefix}admin-login:user-ip`,
      points: cfg.loginFailsMax,
    });
    this.byIp = new RateLimiterRedis({
      ...common,
      keyPrefix: `${keyPrefix}admin-login:ip`,
      points: cfg.loginFailsPerIpMax,
    });
  }

  private static userKey(username: string, ip: string): string {
    return `${username.toLowerCase()}|${ip}`;
  }

  /** Throws RATE_LIMITED (with Retry-After) while either limit is used up. */
  async check(username: string, ip: string): Promise<void> {
    const [u, i] = await Promise.all([
      this.byUserIp.get(LoginLimiter.userKey(username, ip)),
      this.byIp.get(ip),
    ]);
    const blocked = [
      u && u.consumedPoints >= this.byUserIp.points ? u : undefined,
      i && i.consumedPoints >= this.byIp.points ? i : undefined,
    ].filter((r): r is RateLimiterRes => r !== undefined);
    if (blocked.length) throw limited(Math.max(...blocked.map((r) => r.msBeforeNext)));
  }

  async failed(username: string, ip: string): Promise<void> {
    await Promise.all([
      this.byUserIp.penalty(LoginLimiter.userKey(username, ip), 1),
      this.byIp.penalty(ip, 1),
    ]);
  }

  async succeeded(username: string, ip: string): Promise<void> {
    await this.byUserIp.delete(LoginLimiter.userKey(username, ip));
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
