import type { SessionDashboard, TierSales, MinutePoint } from '@showtix/shared-types';
import { loadSessionCatalog } from '../../catalog/repo';
import { SESSION_STATUS_NAME, type SessionCatalog } from '../../catalog/types';
import type { Db } from '../../db/pool';
import { appError } from '../../errors';
import type { InventoryService } from '../../inventory/service';
import { ORDER_STATUS } from '../../orders/types';
import type Redis from 'ioredis';
import type { Keys } from '../../redis/keys';
import * as repo from './repo';

const WINDOW_MIN = 30;

function tierSales(
  cat: SessionCatalog,
  units: Map<string, { held: number; sold: number }>,
  reserved: Map<string, number>,
): TierSales[] {
  const capacity = new Map<string, number>();
  for (const s of cat.seats.values()) capacity.set(s.tierId, (capacity.get(s.tierId) ?? 0) + 1);
  for (const z of cat.zones.values()) capacity.set(z.tierId, (capacity.get(z.tierId) ?? 0) + z.capacity);
  return cat.tiers.map((t) => {
    const cap = capacity.get(t.id) ?? 0;
    const u = units.get(t.id) ?? { held: 0, sold: 0 };
    const r = reserved.get(t.id) ?? 0;
    return {
      tierId: t.id,
      name: t.name,
      priceFen: t.priceFen,
      capacity: cap,
      sold: u.sold,
      held: u.held,
      reserved: r,
      available: Math.max(0, cap - u.sold - u.held - r),
    };
  });
}

function minutes(
  now: Date,
  counts: { orders: Map<number, number>; payments: Map<number, number> },
): MinutePoint[] {
  const last = Math.floor(now.getTime() / 60_000);
  const out: MinutePoint[] = [];
  for (let m = last - WINDOW_MIN + 1; m <= last; m++) {
    out.push({
      minute: new Date(m * 60_000).toISOString(),
      orders: counts.orders.get(m) ?? 0,
      payments: counts.payments.get(m) ?? 0,
    });
  }
  return out;
}

/**
 * Live sales of a session. Counts come from MySQL, the record (pending orders are "held", paid
 * and ticketed ones "sold"); the seat states for the live map come from Redis like the fans'.
 */
export class DashboardService {
  constructor(
    private readonly db: Db,
    private readonly inventory: InventoryService,
    private readonly redis: Redis,
    private readonly keys: Keys,
  ) {}

  async session(sessionId: string, now: Date): Promise<SessionDashboard> {
    // Read fresh, beside the purchase path's cache: an organiser who just changed tiers expects
    // to see them, and the dashboard's polling must not keep evicting the buyers' cached catalog.
    const cat = await loadSessionCatalog(this.db, sessionId);
    if (!cat) throw appError('NOT_FOUND', undefined, '场次不存在');
    const since = new Date((Math.floor(now.getTime() / 60_000) - WINDOW_MIN + 1) * 60_000);
    const [units, byStatus, counts, money, seatStates, reserved, comp] = await Promise.all([
      repo.unitsByTier(this.db, sessionId),
      repo.ordersByStatus(this.db, sessionId),
      repo.perMinute(this.db, sessionId, since),
      repo.money(this.db, sessionId),
      this.seatStates(cat, now),
      repo.reservedByTier(this.db, sessionId),
      repo.compCounts(this.db, sessionId),
    ]);
    const tiers = tierSales(cat, units, reserved);
    const sum = (k: 'sold' | 'held' | 'reserved') => tiers.reduce((n, t) => n + t[k], 0);
    const n = (s: number) => byStatus.get(s) ?? 0;
    const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
    const paidEver = n(ORDER_STATUS.PAID) + n(ORDER_STATUS.TICKETED) + n(ORDER_STATUS.REFUNDED);
    const settled = total - n(ORDER_STATUS.PENDING);
    return {
      sessionId,
      status: SESSION_STATUS_NAME[cat.status]!,
      generatedAt: now.toISOString(),
      totals: {
        capacity: cat.capacity,
        sold: sum('sold'),
        held: sum('held'),
        available: Math.max(0, cat.capacity - sum('sold') - sum('held') - sum('reserved')),
        reserved: sum('reserved'),
        comp: comp.tickets,
      },
      tiers,
      perMinute: minutes(now, counts),
      orders: {
        total,
        pending: n(ORDER_STATUS.PENDING),
        paid: n(ORDER_STATUS.PAID) + n(ORDER_STATUS.TICKETED),
        cancelled: n(ORDER_STATUS.CANCELLED),
        refunded: n(ORDER_STATUS.REFUNDED),
      },
      comp,
      paymentSuccessRate: settled > 0 ? paidEver / settled : null,
      revenueFen: money.paidFen - money.refundedFen,
      refundedFen: money.refundedFen,
      queue: {
        enabled: cat.queueEnabled,
        length: cat.queueEnabled ? await this.queueLength(sessionId) : null,
      },
      seatStates,
    };
  }

  /**
   * Fans waiting in the session's waiting room (queue/): the pre-sale pool, the pool being drawn,
   * and places in line not yet admitted. Read-only, from the queue's own Redis keys.
   */
  async queueLength(sessionId: string): Promise<number> {
    const q = this.keys.session(sessionId).queue;
    const admitted = Number((await this.redis.hget(q.state, 'admitted')) ?? 0);
    const res = await this.redis
      .pipeline()
      .zcard(q.pre)
      .zcard(q.frozen)
      .zcount(q.line, `(${admitted}`, '+inf')
      .exec();
    return (res ?? []).reduce((n, [err, v]) => n + (err ? 0 : Number(v)), 0);
  }

  private async seatStates(cat: SessionCatalog, now: Date): Promise<{ held: string[]; sold: string[] }> {
    const live = await this.inventory.states(cat.id, [], now.getTime());
    return live.loaded ? { held: live.held, sold: live.sold } : repo.claimedSeatStates(this.db, cat.id);
  }

  async overview() {
    const rows = await repo.liveSessions(this.db);
    return rows.map((r) => ({
      id: r.id,
      showId: r.showId,
      showTitle: r.showTitle,
      startsAt: r.startsAt.toISOString(),
      status: SESSION_STATUS_NAME[r.status]!,
    }));
  }
}
