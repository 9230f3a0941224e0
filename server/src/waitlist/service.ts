import type {
  JoinWaitlistSchema,
  WaitlistEndReason,
  WaitlistEntry,
  WaitlistState,
  WaitlistTierCount,
} from '@showtix/shared-types';
import type { z } from 'zod';
import { SESSION_STATUS, type SessionCatalog } from '../catalog/types';
import { inTransaction } from '../db/pool';
import { appError } from '../errors';
import { WAITLIST_STATUS } from '../lifecycle/statuses';
import { WAITLIST_LIFECYCLE } from '../lifecycle/transitions';
import { heldUnits } from '../orders/repo';
import type { AdmissionTokens } from '../queue/tokens';
import type { IdentityVault } from '../attendees/crypto';
import type { Client } from '../risk/limits';
import type { RiskService } from '../risk/service';
import { attendeesOf, endEntry } from './attendee-repo';
import { claimAttendees, requireQueuedAttendee, sealAttendees, type QueuedIds } from './attendees';
import { refreshLines, runSession, type OfferRunDeps } from './offers';
import {
  aheadOf,
  countsOf,
  entriesOfUser,
  findEntry,
  hasLiveEntry,
  insertEntry,
  lockUser,
  sessionsWithLiveEntries,
  waitingPerTier,
  waitingUnitsInShow,
  waitingUnitsOf,
  type EntryViewRow,
} from './repo';

export interface WaitlistDeps extends OfferRunDeps {
  admissions: AdmissionTokens;
  /** Seals a real-name entry's attendees as an order's are. */
  vault: IdentityVault;
  risk: Pick<RiskService, 'guardPurchaseBlocklist'>;
  /** Real-name waiting room: which account joined with each ID (the entry must name theirs). */
  queuedIds: QueuedIds;
  /** The fan's own 取消订单 (closes the WeChat payment first): how an offer is declined. */
  cancelOrder: (userId: string, orderNo: string, now: Date) => Promise<unknown>;
}

type JoinInput = z.output<typeof JoinWaitlistSchema>;

const STATE_NAME: Record<number, WaitlistState> = {
  [WAITLIST_STATUS.WAITING]: 'waiting',
  [WAITLIST_STATUS.OFFERED]: 'offered',
  [WAITLIST_STATUS.FULFILLED]: 'fulfilled',
  [WAITLIST_STATUS.LAPSED]: 'lapsed',
  [WAITLIST_STATUS.DECLINED]: 'declined',
  [WAITLIST_STATUS.LEFT]: 'left',
  [WAITLIST_STATUS.ENDED]: 'ended',
};

/** Joins placed by the server itself (tests, tools): no address or device to check. */
const INTERNAL: Client = { ip: undefined, device: undefined };

/** Sessions one sweep looks at. */
const SWEEP_SESSIONS = 500;

/**
 * The waiting list (候补) for returned tickets: fans line up per price tier of a sold-out
 * session; units that come back (an expired hold, a cancelled order, a refund) are offered in
 * join order as pending orders held for WAITLIST_OFFER_MS (offers.ts). While a tier has fans
 * waiting, its returned units are theirs: direct purchases of the tier are refused
 * (WAITLIST_FIRST, orders/service.ts), and the offer itself goes through the purchase's gate.
 */
export class WaitlistService {
  private readonly runs = new Map<string, Promise<void>>();
  /** Per session, the time of the latest run asked for while one was under way. */
  private readonly again = new Map<string, Date>();

  /** d: public for tests and tools that place an offer by hand (d.offer). */
  constructor(readonly d: WaitlistDeps) {}

  /**
   * Joins a tier's line. Only when the tier has nothing on sale (or already has a line: its free
   * units are being offered), with the waiting room's admission on a queued session (the line
   * is no way round the waiting room), within the purchase limit counting what the fan holds
   * and what they already wait for. One live entry per fan and tier (a unique key). A real-name
   * session's entry names its attendees, one per unit, under one ID, one ticket (attendees.ts).
   */
  async join(
    userId: string,
    sessionId: string,
    input: JoinInput,
    now: Date,
    client: Client = INTERNAL,
  ): Promise<WaitlistEntry> {
    const cat = await this.d.catalog.requireSession(sessionId);
    const selling = cat.status === SESSION_STATUS.ON_SALE || cat.status === SESSION_STATUS.SOLD_OUT;
    if (!selling) throw appError('WAITLIST_UNAVAILABLE');
    if (!cat.tiers.some((t) => t.id === input.tierId))
      throw appError('VALIDATION_FAILED', { tierId: input.tierId }, '所选票档不属于本场次');
    const attendees = sealAttendees(this.d.vault, cat, input);
    // The line is a way to buy: the purchase's blocklist (account, address, device, IDs) applies.
    const idHashes = attendees?.map((a) => a.idHash) ?? [];
    await this.d.risk.guardPurchaseBlocklist(userId, client, now.getTime(), idHashes);
    if (cat.queueEnabled) {
      this.d.admissions.verify(input.admissionToken, cat.id, userId, now.getTime());
      if (attendees) await requireQueuedAttendee(this.d.queuedIds, cat.id, userId, attendees);
    }
    if (await this.hasFree(cat, input.tierId, now)) throw appError('WAITLIST_NOT_SOLD_OUT');
    const id = await inTransaction(this.d.db, async (conn) => {
      await lockUser(conn, userId);
      if (await hasLiveEntry(conn, userId, sessionId, input.tierId)) throw appError('WAITLIST_EXISTS');
      await this.checkLimit(conn, cat, userId, input.quantity);
      const inserted = await insertEntry(conn, {
        sessionId,
        tierId: input.tierId,
        userId,
        quantity: input.quantity,
        now,
      });
      if (!inserted) throw appError('WAITLIST_EXISTS');
      if (attendees) await claimAttendees(conn, inserted, sessionId, attendees);
      return inserted;
    });
    await refreshLines(this.d, cat, await waitingPerTier(this.d.db, sessionId));
    return this.entry(userId, id);
  }

  /** Held units + units waited for + this entry within the session's and the show's limits. */
  private async checkLimit(
    conn: Parameters<typeof waitingUnitsOf>[0],
    cat: SessionCatalog,
    userId: string,
    quantity: number,
  ): Promise<void> {
    const held = await heldUnits(conn, userId, cat.id);
    const waiting = await waitingUnitsOf(conn, userId, cat.id);
    if (held.session + waiting + quantity > cat.purchaseLimit)
      throw appError('LIMIT_EXCEEDED', { purchaseLimit: cat.purchaseLimit, held: held.session, waiting });
    if (cat.showPurchaseLimit !== null) {
      const inShow = await waitingUnitsInShow(conn, userId, cat.id);
      if (held.show + inShow + quantity > cat.showPurchaseLimit)
        throw appError('LIMIT_EXCEEDED', undefined, '超出本演出每人限购数量');
    }
  }

  /** Whether the tier has units on sale that no line is waiting for. */
  private async hasFree(cat: SessionCatalog, tierId: string, now: Date): Promise<boolean> {
    if (cat.waitlistedTiers.has(tierId)) return false;
    const zones = [...cat.zones.values()].filter((z) => z.tierId === tierId);
    const states = await this.d.inventory.states(
      cat.id,
      zones.map((z) => z.id),
      now.getTime(),
    );
    if (!states.loaded) return true; // the gate is rebuilding: let the fan try buying first
    if (zones.length) return zones.some((z) => (states.zones.get(z.id) ?? 0) > 0);
    const taken = new Set([...states.held, ...states.sold]);
    for (const [id, s] of cat.seats) if (s.tierId === tierId && !taken.has(id)) return true;
    return false;
  }

  /**
   * Leaves the line; an entry holding an offer declines it (its order is cancelled as the fan's
   * own 取消订单 would, and the units pass on). Leaving an entry that ended answers it again.
   */
  async leave(userId: string, entryId: string, now: Date): Promise<WaitlistEntry> {
    const e = await findEntry(this.d.db, entryId);
    if (!e || e.user_id !== userId) throw appError('NOT_FOUND', undefined, '候补记录不存在');
    if (e.status === WAITLIST_STATUS.WAITING) {
      await endEntry(this.d.db, e.id, WAITLIST_LIFECYCLE.leave, now);
    } else if (e.status === WAITLIST_STATUS.OFFERED) {
      const [view] = await entriesOfUser(this.d.db, userId, { id: e.id });
      await this.d.cancelOrder(userId, view!.order_no!, now);
    }
    await this.runNow(e.session_id, now);
    return this.entry(userId, e.id);
  }

  async mine(userId: string): Promise<{ items: WaitlistEntry[] }> {
    const rows = await entriesOfUser(this.d.db, userId);
    return { items: await Promise.all(rows.map((r) => this.view(r))) };
  }

  private async entry(userId: string, id: string): Promise<WaitlistEntry> {
    const [row] = await entriesOfUser(this.d.db, userId, { id });
    if (!row) throw appError('NOT_FOUND', undefined, '候补记录不存在');
    return this.view(row);
  }

  private async view(r: EntryViewRow): Promise<WaitlistEntry> {
    const offered = r.order_id !== null;
    return {
      id: String(r.id),
      sessionId: String(r.session_id),
      tierId: String(r.tier_id),
      tierName: r.tier_name,
      priceFen: Number(r.price_fen),
      quantity: Number(r.quantity),
      state: STATE_NAME[r.status]!,
      ahead: r.status === WAITLIST_STATUS.WAITING ? await aheadOf(this.d.db, r) : 0,
      orderNo: offered ? String(r.order_no) : null,
      offerExpiresAt: offered && r.expire_at ? r.expire_at.toISOString() : null,
      showTitle: r.title,
      startsAt: r.starts_at.toISOString(),
      createdAt: r.created_at.toISOString(),
      attendees: (await attendeesOf(this.d.db, r.id)).map((a) => ({
        name: a.nameMasked,
        idMasked: a.idMasked,
      })),
      endReason: (r.end_reason as WaitlistEndReason | null) ?? null,
    };
  }

  /** The admin's view: per tier, entries waiting (and their units), offered, fulfilled, lapsed. */
  async counts(sessionId: string): Promise<{ items: WaitlistTierCount[] }> {
    const byTier = new Map<string, WaitlistTierCount>();
    for (const r of await countsOf(this.d.db, sessionId)) {
      const c = byTier.get(r.tier_id) ?? {
        tierId: r.tier_id,
        tierName: r.tier_name,
        waiting: 0,
        waitingUnits: 0,
        offered: 0,
        fulfilled: 0,
        lapsed: 0,
      };
      if (r.status === WAITLIST_STATUS.WAITING) Object.assign(c, { waiting: r.n, waitingUnits: r.units });
      if (r.status === WAITLIST_STATUS.OFFERED) c.offered = r.n;
      if (r.status === WAITLIST_STATUS.FULFILLED) c.fulfilled = r.n;
      if (r.status === WAITLIST_STATUS.LAPSED) c.lapsed = r.n;
      byTier.set(r.tier_id, c);
    }
    return { items: [...byTier.values()] };
  }

  /**
   * Units of a session may have come back (inventory.onFreed): one offer run, in the background.
   * A session without a line costs nothing (the cached catalog tells). Runs of a session never overlap in this
   * instance; a kick during a run makes one more run after it.
   */
  kick(sessionId: string, now: () => Date): void {
    void this.d.catalog
      .session(sessionId)
      .then((cat) => (cat?.waitlistedTiers.size ? this.runNow(sessionId, now()) : undefined))
      .catch((err) => this.d.log.error({ err, sessionId }, 'waitlist kick failed'));
  }

  /**
   * One offer run of a session now (or after the one under way); resolves when it is done. The
   * run after runs with the time it was asked at (a release's): offers it makes are stamped and
   * held from then, not from when the run under way began.
   */
  async runNow(sessionId: string, now: Date): Promise<void> {
    const running = this.runs.get(sessionId);
    if (running) {
      this.again.set(sessionId, now);
      return running;
    }
    const run = (async () => {
      try {
        for (let at: Date | undefined = now; at; at = this.again.get(sessionId)) {
          this.again.delete(sessionId);
          await runSession(this.d, sessionId, at);
        }
      } finally {
        this.runs.delete(sessionId);
      }
    })();
    this.runs.set(sessionId, run);
    return run;
  }

  /**
   * The sweep (jobs): every session with live entries gets a run. It makes the offers a crash
   * between a release and its offer left undone, settles offers that were paid or expired, and
   * writes the lines' lengths back to Redis.
   */
  async sweep(now: Date): Promise<void> {
    for (const sessionId of await sessionsWithLiveEntries(this.d.db, SWEEP_SESSIONS)) {
      await this.runNow(sessionId, now).catch((err) =>
        this.d.log.error({ err, sessionId }, 'waitlist run failed'),
      );
    }
  }
}
