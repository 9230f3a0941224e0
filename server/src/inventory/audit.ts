import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import type { Metrics } from '../http/metrics';
import type { Keys } from '../redis/keys';
import type { ScriptedRedis } from '../redis/scripts';
import { seatValue } from '../redis/records';
import type { InventoryService } from './service';
import type { CatalogService } from '../catalog/service';
import { countZoneClaims, seatClaimsOf, usedQuota } from './repo';

export interface AuditDeps {
  db: Db;
  redis: ScriptedRedis;
  keys: Keys;
  inventory: InventoryService;
  catalog: CatalogService;
  metrics: Metrics;
  log: Logger;
}

export interface AuditResult {
  /** What Redis says is left minus capacity less MySQL's live claims. */
  diff: number;
  /**
   * Seats on which the two disagree, e.g. `free-in-redis:<seatId>`, and buyers whose count of
   * units (the purchase limit's) differs, `user-count:<userId>`.
   */
  seats: string[];
  /** Rebuilt from MySQL by this check. */
  repaired: boolean;
}

/** What one check found: the count's difference and the names of the others (AuditResult). */
type Found = Pick<AuditResult, 'diff' | 'seats'>;

/**
 * Reconciles Redis with MySQL (the record) for each selling session: the units left, and each
 * seat's owner. Orders between their Redis hold and their MySQL commit make small, passing
 * differences; the same difference found by two checks in a row is not passing, and the session
 * is rebuilt from MySQL (isPersisted, below). What is not passing shows on /metrics
 * (inventory_reconcile_difference, until a check finds the session clean) and in the log at warn;
 * a passing difference only at debug, since a busy sale has orders in flight at nearly every check.
 */
export class InventoryAudit {
  /** Each session's differences at the previous check. */
  private last = new Map<string, Found>();

  constructor(private readonly d: AuditDeps) {}

  async run(sessionIds: string[], now: Date): Promise<Map<string, AuditResult>> {
    const out = new Map<string, AuditResult>();
    for (const id of sessionIds) {
      const found = await this.check(id);
      if (!found) continue;
      const persisted = isPersisted(this.last.get(id), found);
      const clean = found.diff === 0 && !found.seats.length;
      this.last.set(id, found);
      // The gauge holds a difference that was not passing until a check finds the session clean:
      // one the rebuild cannot fix, or one that keeps coming back, stays up (the alert's `for`).
      if (persisted) this.d.metrics.inventoryDifference.set({ session: id }, found.diff);
      else if (clean) this.d.metrics.inventoryDifference.set({ session: id }, 0);
      if (!clean)
        this.d.log[persisted ? 'warn' : 'debug'](
          { sessionId: id, ...found, persisted },
          'Redis and MySQL disagree',
        );
      if (persisted) {
        await this.d.inventory.rebuild(id, now.getTime());
        this.last.delete(id);
      }
      out.set(id, { ...found, repaired: persisted });
    }
    return out;
  }

  private async check(sessionId: string): Promise<Found | undefined> {
    const cat = await this.d.catalog.session(sessionId);
    const redisAvail = await this.d.inventory.availability(sessionId);
    if (!cat || redisAvail === undefined) return undefined; // not loaded: the next take rebuilds it
    const claims = await seatClaimsOf(this.d.db, sessionId);
    const zones = await countZoneClaims(this.d.db, sessionId);
    const inRedis = await this.d.redis.hgetall(this.d.keys.session(sessionId).seats);
    const seats: string[] = [];
    const claimed = new Set<string>();
    for (const c of claims) {
      const seat = c.seatId;
      claimed.add(seat);
      const v = inRedis[seat];
      if (v === undefined) seats.push(`free-in-redis:${seat}`);
      else if (seatValue.orderOf(v) !== c.orderId) seats.push(`other-order-in-redis:${seat}`);
    }
    for (const seat of Object.keys(inRedis)) if (!claimed.has(seat)) seats.push(`unclaimed-in-mysql:${seat}`);
    seats.push(...(await this.userCounts(sessionId)));
    const diff = redisAvail - (cat.capacity - claims.length - zones);
    return { diff, seats: seats.sort() };
  }

  /** Buyers whose unit count in Redis is not their live units in MySQL (the limit's quota). */
  private async userCounts(sessionId: string): Promise<string[]> {
    const want = await usedQuota(this.d.db, sessionId);
    const counted = await this.d.redis.hgetall(this.d.keys.session(sessionId).users);
    const users = new Set([...want.keys(), ...Object.keys(counted)]);
    return [...users]
      .filter((u) => Number(counted[u] ?? 0) !== (want.get(u) ?? 0))
      .map((u) => `user-count:${u}`);
  }
}

/**
 * Whether a difference is not passing. In-flight orders come and go between checks (a minute
 * apart): what both checks found by name (a seat, a buyer's count) is not in flight. Nor is an
 * unchanged count with nothing named in either check (units lost or made up in Redis). An equal
 * count with other names each time is two sets of orders in flight that happened to be as many
 * (6 of 249 differences in one flash sale with the audit every second, docs/benchmarks.md), and
 * a rebuild then took the session's Redis apart mid-sale for nothing. A real count difference
 * among orders in flight waits for a quieter check; MySQL's keys refuse a double sale meanwhile.
 */
function isPersisted(prev: Found | undefined, found: Found): boolean {
  if (!prev) return false;
  const before = new Set(prev.seats);
  if (found.seats.some((x) => before.has(x))) return true;
  return found.diff !== 0 && found.diff === prev.diff && !found.seats.length && !prev.seats.length;
}
