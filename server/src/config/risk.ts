import { z } from 'zod';
import type { RiskOptions } from '../risk/service';
import type { PathLimits } from '../risk/limits';
import type { QueueOptions } from '../queue/service';

const int = (def: number) => z.coerce.number().int().nonnegative().default(def);

/**
 * Rate limits ("<points>/<seconds>", 0 points = off) per user, address and device on the
 * purchase, waiting-room, login and pay/cancel paths, and the anti-scalper thresholds. Per-address
 * limits are only a coarse flood guard: mobile carriers put thousands of phones behind one NAT
 * address, so the real limits are per account, per device and per WeChat identity (README).
 */
const Env = z.object({
  RATE_PURCHASE_USER: z.string().default('10/10'),
  RATE_PURCHASE_IP: z.string().default('2000/1'),
  RATE_PURCHASE_DEVICE: z.string().default('20/10'),
  RATE_QUEUE_USER: z.string().default('60/60'),
  RATE_QUEUE_IP: z.string().default('3000/1'),
  RATE_QUEUE_DEVICE: z.string().default('120/60'),
  RATE_POLL_USER: z.string().default('40/60'),
  RATE_POLL_IP: z.string().default('10000/1'),
  RATE_POLL_DEVICE: z.string().default('80/60'),
  // Paying and cancelling an order: each call is a signed WeChat API call (prepay, close).
  RATE_PAY_USER: z.string().default('10/60'),
  RATE_PAY_IP: z.string().default('2000/1'),
  RATE_PAY_DEVICE: z.string().default('20/60'),
  RATE_LOGIN_IP: z.string().default('3000/60'),
  RATE_LOGIN_OPENID: z.string().default('10/60'),
  RATE_WRITE_USER: z.string().default('30/60'),
  RATE_WRITE_IP: z.string().default('3000/60'),
  RATE_WRITE_DEVICE: z.string().default('60/60'),
  RATE_LOGIN_DEVICE: z.string().default('10/60'),
  EXPIRED_HOLDS_MAX: int(3),
  HOLD_COOLDOWN_MS: int(30 * 60_000),
  ACCOUNTS_PER_DEVICE_MAX: int(3),
  ACCOUNTS_PER_IP_MAX: int(1000),
  QUEUE_TURN_MS: int(10 * 60_000),
  QUEUE_RATE_PER_MIN: int(600),
  // A waiting fan's poll answered from this instance's last read of the room (queue/waiting-places.ts).
  QUEUE_POLL_MAX_AGE_MS: int(500),
  QUEUE_POLL_PLACES_MAX: int(500_000),
});

function limit(spec: string, name: string) {
  const m = /^(\d+)\/(\d+)$/.exec(spec);
  if (!m) throw new Error(`${name} must look like "<points>/<seconds>", got "${spec}"`);
  return { points: Number(m[1]), durationS: Math.max(1, Number(m[2])) };
}

export interface RiskConfig {
  risk: Omit<RiskOptions, 'keyPrefix'>;
  /** The waiting room's turn, default rate, and its polls answered without Redis. */
  queue: QueueOptions;
}

export function loadRiskConfig(source: NodeJS.ProcessEnv): RiskConfig {
  const e = Env.parse(source);
  const path = (user: string | undefined, ip: string, device: string): PathLimits => ({
    user: user ? limit(user, 'RATE_*_USER') : { points: 0, durationS: 1 },
    ip: limit(ip, 'RATE_*_IP'),
    device: limit(device, 'RATE_*_DEVICE'),
  });
  return {
    risk: {
      purchase: path(e.RATE_PURCHASE_USER, e.RATE_PURCHASE_IP, e.RATE_PURCHASE_DEVICE),
      queue: path(e.RATE_QUEUE_USER, e.RATE_QUEUE_IP, e.RATE_QUEUE_DEVICE),
      poll: path(e.RATE_POLL_USER, e.RATE_POLL_IP, e.RATE_POLL_DEVICE),
      // The login path's 'user' is the WeChat identity (openid) code2session answered.
      login: path(e.RATE_LOGIN_OPENID, e.RATE_LOGIN_IP, e.RATE_LOGIN_DEVICE),
      pay: path(e.RATE_PAY_USER, e.RATE_PAY_IP, e.RATE_PAY_DEVICE),
      write: path(e.RATE_WRITE_USER, e.RATE_WRITE_IP, e.RATE_WRITE_DEVICE),
      expiredHoldsMax: e.EXPIRED_HOLDS_MAX,
      cooldownMs: e.HOLD_COOLDOWN_MS,
      accountsPerDeviceMax: e.ACCOUNTS_PER_DEVICE_MAX,
      accountsPerIpMax: e.ACCOUNTS_PER_IP_MAX,
      blocklistRefreshMs: 5_000,
    },
    queue: {
      turnMs: e.QUEUE_TURN_MS,
      defaultRatePerMin: e.QUEUE_RATE_PER_MIN,
      pollMaxAgeMs: e.QUEUE_POLL_MAX_AGE_MS,
      placesPerRoomMax: e.QUEUE_POLL_PLACES_MAX,
    },
  };
}

export function riskOptions(c: { redisKeyPrefix: string; risk: RiskConfig['risk'] }): RiskOptions {
  return { keyPrefix: c.redisKeyPrefix, ...c.risk };
}
