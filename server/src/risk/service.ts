import type Redis from 'ioredis';
import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import { appError } from '../errors';
import type { ScriptRates } from '../inventory/types';
import { Keys } from '../redis/keys';
import { PathLimiter, WITHIN_LIMITS, type Client, type Limit, type PathLimits } from './limits';
import {
  blocklistEntries,
  type BlockKind,
  bumpExpiredStreak,
  bumpExpiredStreaks,
  liveSessionIds,
  resetExpiredStreaks,
  upsertRiskFlag,
} from './repo';

export interface RiskOptions {
  keyPrefix: string;
  purchase: PathLimits;
  queue: PathLimits;
  poll: PathLimits;
  login: PathLimits;
  /** Paying and cancelling orders (each call is a signed WeChat API call). */
  pay: PathLimits;
  /** Account writes that are not purchases (saved attendees, staff invite codes). */
  write: PathLimits;
  /** Holds a user may let expire in a row before new holds wait for cooldownMs. */
  expiredHoldsMax: number;
  cooldownMs: number;
  /** Accounts seen behind one device / one address before it is flagged for review. */
  accountsPerDeviceMax: number;
  accountsPerIpMax: number;
  blocklistRefreshMs: number;
}

/** Two checks together, as Promise.all; WITHIN_LIMITS itself when both already passed. */
function both(a: Promise<void>, b: Promise<void>): Promise<void> {
  if (a === WITHIN_LIMITS && b === WITHIN_LIMITS) return WITHIN_LIMITS;
  return Promise.all([a, b]).then(() => undefined);
}

/** Who and what a request is checked against the blocklist for. */
interface BlockSubjects {
  user: string;
  ip: string | undefined;
  device: string | undefined;
  ids: string[];
}

/**
 * Anti-scalper rules: request rates, the blocklist the admin page edits, a cooldown after
 * too many holds left to expire in a row (the hold-expire-hold loop), and flags for many
 * accounts behind one device or address. Every refusal carries its own code and message.
 */
export class RiskService {
  private readonly limiters: Record<'purchase' | 'queue' | 'poll' | 'login' | 'pay' | 'write', PathLimiter>;
  private blocked = new Map<BlockKind, Set<string>>();
  private blockedAt = 0;
  private loading: Promise<void> | undefined;

  private readonly keys: Keys;

  constructor(
    private readonly db: Db,
    private readonly redis: Redis,
    private readonly log: Logger,
    private readonly o: RiskOptions,
  ) {
    this.keys = new Keys(o.keyPrefix);
    this.limiters = {
      // Per instance, across sessions; the shared per-session counts are in the take script.
      purchase: new PathLimiter(redis, o.keyPrefix, 'purchase', o.purchase, 'memory'),
      // As for purchases: across sessions per instance; per session in the join script.
      queue: new PathLimiter(redis, o.keyPrefix, 'queue', o.queue, 'memory'),
      poll: new PathLimiter(redis, o.keyPrefix, 'poll', o.poll, 'memory'),
      login: new PathLimiter(redis, o.keyPrefix, 'login', o.login),
      pay: new PathLimiter(redis, o.keyPrefix, 'pay', o.pay),
      write: new PathLimiter(redis, o.keyPrefix, 'write', o.write),
    };
  }

  private cooldownKey(userId: string): string {
    return new Keys(this.o.keyPrefix).cooldown(userId);
  }

  /** Before anything else of a purchase: the blocklist (kept per instance, no round trip). */
  async guardPurchaseBlocklist(
    userId: string,
    client: Client,
    nowMs: number,
    idHashes: string[] = [],
  ): Promise<void> {
    await this.checkBlocked({ user: userId, ip: client.ip, device: client.device, ids: idHashes }, nowMs);
  }

  /**
   * The purchase's request rates, counted where they cost no round trip of their own:
   * - per session, shared by every instance, in the take script itself (returned here for it);
   *   a counter across sessions cannot be there, because a script's KEYS must share the
   *   session's Redis Cluster slot ({s:<id>});
   * - across sessions, per instance in memory (PathLimiter's 'memory' store, WindowCounter):
   *   a user spreading requests over many sessions gets at most the limit per
   *   instance, and every session still sees at most the limit from all instances together.
   * The script also checks the hold cooldown, which onHoldExpired writes into each live session.
   */
  async purchaseRates(userId: string, client: Client): Promise<ScriptRates> {
    await this.limiters.purchase.consume(userId, client);
    return scriptRates(this.o.purchase, userId, client);
  }

  /**
   * A join of a waiting room: the blocklist, and its rates counted as a purchase's are (see
   * purchaseRates): across sessions per instance here, per session, shared by every instance,
   * in the join script itself (returned here for it), so a join is one Redis round trip.
   */
  async joinRates(userId: string, client: Client, nowMs: number): Promise<ScriptRates> {
    await both(
      this.limiters.queue.consume(userId, client),
      this.checkBlocked({ user: userId, ip: client.ip, device: client.device, ids: [] }, nowMs),
    );
    return scriptRates(this.o.queue, userId, client);
  }

  /**
   * Asking for one's place in a waiting room (per instance: polls are many and cheap). Within
   * the limits and with the blocklist fresh, both checks answer at once and nothing is allocated.
   */
  guardPoll(userId: string, client: Client, nowMs: number): Promise<void> {
    return both(
      this.limiters.poll.consume(userId, client),
      this.checkBlocked({ user: userId, ip: client.ip, device: client.device, ids: [] }, nowMs),
    );
  }

  /** Paying or cancelling an order: each call costs a signed WeChat API call (prepay, close). */
  async guardPaymentCall(userId: string, client: Client): Promise<void> {
    await this.limiters.pay.consume(userId, client);
  }

  async guardLogin(client: Client): Promise<void> {
    await this.limiters.login.consume(undefined, client);
  }

  /** A fan's database write outside the purchase path (each costs a row, or guesses a code). */
  async guardWrite(userId: string, client: Client): Promise<void> {
    await this.limiters.write.consume(userId, client);
  }

  /** After code2session: logins per WeChat identity, whatever address or device they come from. */
  async guardLoginIdentity(openid: string): Promise<void> {
    await this.limiters.login.consume(openid, { ip: undefined, device: undefined });
  }

  /** The blocklist's answer: WITHIN_LIMITS itself when the copy is fresh and nothing matches. */
  private checkBlocked(s: BlockSubjects, nowMs: number): Promise<void> {
    if (this.blocklistFresh(nowMs))
      return this.isBlocked(s) ? Promise.reject(appError('BLOCKED')) : WITHIN_LIMITS;
    return this.refreshBlocklist(nowMs).then(() => {
      if (this.isBlocked(s)) throw appError('BLOCKED');
    });
  }

  private isBlocked(s: BlockSubjects): boolean {
    return Boolean(
      this.blocked.get('user')?.has(s.user) ||
      (s.ip !== undefined && this.blocked.get('ip')?.has(s.ip)) ||
      (s.device !== undefined && this.blocked.get('device')?.has(s.device)) ||
      s.ids.some((id) => this.blocked.get('id')?.has(id)),
    );
  }

  /** The blocklist is small and read on every purchase: each instance keeps a copy for a few seconds. */
  private blocklistFresh(nowMs: number): boolean {
    return nowMs - this.blockedAt < this.o.blocklistRefreshMs;
  }

  private async refreshBlocklist(nowMs: number): Promise<void> {
    if (this.blocklistFresh(nowMs)) return;
    this.loading ??= (async () => {
      const next = new Map<BlockKind, Set<string>>();
      for (const r of await blocklistEntries(this.db)) {
        const set = next.get(r.kind) ?? new Set<string>();
        set.add(r.value);
        next.set(r.kind, set);
      }
      this.blocked = next;
      this.blockedAt = nowMs;
    })().finally(() => (this.loading = undefined));
    await this.loading;
  }

  /** Tells every instance to reload the blocklist on its next check (after an admin edit). */
  invalidateBlocklist(): void {
    this.blockedAt = 0;
  }

  /**
   * An order of this user expired unpaid: one more in the streak; past the cap, a cooldown. The
   * purchase checks it inside its one script, whose keys live in the session's Cluster slot,
   * so the cooldown is written into every session a hold can be placed in now (a rare write:
   * only past the cap); a session that goes on presale later during the cooldown does not see
   * it. The global key stays the record that a cooldown runs (onPaid looks for it).
   */
  async onHoldExpired(userId: string): Promise<void> {
    const streak = await bumpExpiredStreak(this.db, userId);
    if (streak >= this.o.expiredHoldsMax) await this.startCooldowns(new Map([[userId, streak]]));
  }

  /** onHoldExpired for the holds of an expiry batch (a user once per hold): a statement per batch. */
  async onHoldsExpired(userIds: readonly string[]): Promise<void> {
    await this.startCooldowns(await bumpExpiredStreaks(this.db, userIds, this.o.expiredHoldsMax));
  }

  /** Cooldowns for the users whose streak reached the cap (user -> streak), the live sessions read once. */
  private async startCooldowns(reached: ReadonlyMap<string, number>): Promise<void> {
    if (reached.size === 0) return;
    const sessions = await liveSessionIds(this.db);
    const px = this.o.cooldownMs;
    for (const [userId, streak] of reached) {
      await this.redis.set(this.cooldownKey(userId), '1', 'PX', px);
      await Promise.all(
        sessions.map((id) => this.redis.set(this.keys.session(id).cooldown(userId), '1', 'PX', px)),
      );
      this.log.info({ userId, streak }, 'hold cooldown after repeated expired holds');
    }
  }

  /**
   * Payments end their buyers' streaks (and a cooldown, in every session it was written into).
   * The users of a batch of payments together: one statement, and the cooldown keys' DELs go
   * out in one pipeline (ioredis auto-pipelining; one key each, so Cluster-safe).
   */
  async onPaid(userIds: readonly string[]): Promise<void> {
    await resetExpiredStreaks(this.db, userIds);
    const cooled = await Promise.all(userIds.map((u) => this.redis.del(this.cooldownKey(u))));
    const inCooldown = userIds.filter((_, i) => cooled[i]! > 0);
    if (inCooldown.length === 0) return;
    const sessions = await liveSessionIds(this.db);
    await Promise.all(
      inCooldown.flatMap((u) => sessions.map((id) => this.redis.del(this.keys.session(id).cooldown(u)))),
    );
  }

  /**
   * Remembers which accounts a device and an address carry (a day's worth); flags them past the
   * threshold. The flag row is written when the count first passes it and then at each doubling,
   * not for every new account (a busy NAT address must not turn every login into a write).
   */
  async noteAccount(userId: string, client: Client, now: Date): Promise<void> {
    const seen = [
      ['device', client.device, this.o.accountsPerDeviceMax],
      ['ip', client.ip, this.o.accountsPerIpMax],
    ] as const;
    for (const [kind, subject, max] of seen) {
      if (!subject || max <= 0) continue;
      const key = new Keys(this.o.keyPrefix).riskSeen(kind, subject);
      const [[, added], [, count]] = (await this.redis
        .multi()
        .sadd(key, userId)
        .scard(key)
        .expire(key, 86_400)
        .exec()) as [unknown, number][];
      const milestone = count === max + 1 || (count > max && (count & (count - 1)) === 0);
      if (added === 1 && milestone) {
        await upsertRiskFlag(this.db, { kind, subject, accounts: count, now });
      }
    }
  }
}

/** The dimensions of a path's limits a script counts for this request (those that are on). */
function scriptRates(limits: PathLimits, userId: string, client: Client): ScriptRates {
  const count = (subject: string | undefined, l: Limit) =>
    subject !== undefined && l.points > 0
      ? { subject, points: l.points, windowMs: l.durationS * 1000 }
      : undefined;
  const rates: ScriptRates = {};
  const user = count(userId, limits.user);
  const device = count(client.device, limits.device);
  const ip = count(client.ip, limits.ip);
  if (user) rates.user = user;
  if (device) rates.device = device;
  if (ip) rates.ip = ip;
  return rates;
}
