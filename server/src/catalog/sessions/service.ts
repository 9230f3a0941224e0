import type { AdminSessionDetail, SeatMap } from '@showtix/shared-types';
import type { Logger } from 'pino';
import type { CatalogService } from '../service';
import { writeSession } from '../admin-repo';
import { openSale } from '../../jobs/session-lifecycle';
import { transitionSession, type SessionRecord } from '../repo';
import type { SeatMapService } from '../../inventory/seatmap';
import { SESSION_STATUS, SESSION_STATUS_NAME } from '../types';
import { ER_DUP_ENTRY, sqlErrno, type Conn, type Db } from '../../db/pool';
import { appError } from '../../errors';
import { sleep, type InventoryService } from '../../inventory/service';
import { recordAudit } from '../../audit/repo';
import type { Actor } from '../../audit/actor';
import { audited, type AuditOf } from '../../audit/tx';
import { lockShow } from '../shows/repo';
import { EMPTY_CLAIMS, planTiers, type TierSpec } from './plan';
import * as repo from './repo';

export interface SessionFields {
  startsAt: string;
  saleStartsAt: string;
  holdMinutes: number;
  purchaseLimit: number;
  realName: boolean;
  queueEnabled: boolean;
  queueRatePerMin?: number | null;
  rebindFreezeMinutes?: number | null;
}

export interface SessionServiceDeps {
  db: Db;
  catalog: CatalogService;
  inventory: InventoryService;
  seatmaps: SeatMapService;
  log: Logger;
  /** How long in-flight purchases get to finish writing before a live session's tiers change. */
  settleMs: number;
}

const SELLING: number[] = [SESSION_STATUS.ON_SALE, SESSION_STATUS.SOLD_OUT];

function duplicateStart(err: unknown): never {
  if (sqlErrno(err) === ER_DUP_ENTRY)
    throw appError('VALIDATION_FAILED', { field: 'startsAt' }, '该演出已有相同开始时间的场次');
  throw err;
}

export class SessionService {
  constructor(private readonly d: SessionServiceDeps) {}

  private async require(c: Db | Conn, id: string, lock = false): Promise<SessionRecord> {
    const s = await repo.findSession(c, id, lock);
    if (!s) throw appError('NOT_FOUND', undefined, '场次不存在');
    return s;
  }

  /** An audited change to one session, made with its row locked (FOR UPDATE) for the transaction. */
  private changeLocked<T>(
    who: Actor,
    id: string,
    now: Date,
    change: (c: Conn, s: SessionRecord) => Promise<T>,
    entry: AuditOf<T>,
  ): Promise<T> {
    return audited(this.d.db, who, now, async (c) => change(c, await this.require(c, id, true)), entry);
  }

  async get(id: string): Promise<AdminSessionDetail> {
    const summary = await repo.sessionSummaryById(this.d.db, id);
    if (!summary) throw appError('NOT_FOUND', undefined, '场次不存在');
    const [cur, claims] = await Promise.all([
      repo.currentTiers(this.d.db, id, summary.showId),
      repo.claimsOf(this.d.db, id),
    ]);
    return {
      ...summary,
      showTitle: cur.showTitle,
      venueId: cur.venueId,
      seatTiers: Object.fromEntries(cur.seatTier),
      claimedSeatIds: [...claims.seats.keys()],
    };
  }

  async create(
    who: Actor,
    showId: string,
    input: SessionFields & { tiers: TierSpec[] },
    now: Date,
  ): Promise<AdminSessionDetail> {
    if (Date.parse(input.startsAt) <= now.getTime())
      throw appError('VALIDATION_FAILED', { field: 'startsAt' }, '演出时间必须晚于当前时间');
    const id = await audited(
      this.d.db,
      who,
      now,
      async (c) => {
        if (!(await lockShow(c, showId))) throw appError('NOT_FOUND', undefined, '演出不存在');
        const cur = await repo.currentTiers(c, '0', showId);
        planTiers(cur, input.tiers, EMPTY_CLAIMS); // validates seats and zones against the venue
        return writeSession(c, {
          showId,
          startsAt: new Date(input.startsAt),
          saleStartsAt: new Date(input.saleStartsAt),
          holdMinutes: input.holdMinutes,
          purchaseLimit: input.purchaseLimit,
          realName: input.realName,
          queueEnabled: input.queueEnabled,
          queueRatePerMin: input.queueRatePerMin ?? null,
          tiers: input.tiers,
        }).catch(duplicateStart);
      },
      (newId) => ({
        action: 'session.create',
        entityType: 'session',
        entityId: newId,
        after: {
          ...input,
          showId,
          tiers: input.tiers.map((t) => ({
            name: t.name,
            priceFen: t.priceFen,
            seats: t.seatIds?.length ?? null,
            zoneName: t.zoneName ?? null,
          })),
        },
      }),
    );
    return this.get(id);
  }

  async update(
    who: Actor,
    id: string,
    input: Partial<SessionFields>,
    now: Date,
  ): Promise<AdminSessionDetail> {
    await this.changeLocked(
      who,
      id,
      now,
      async (c, s) => {
        if (s.status === SESSION_STATUS.ENDED)
          throw appError('SESSION_STATE_INVALID', undefined, '场次已结束，不能修改');
        const startsAt = input.startsAt ? new Date(input.startsAt) : s.startsAt;
        const saleStartsAt = input.saleStartsAt ? new Date(input.saleStartsAt) : s.saleStartsAt;
        if (
          input.saleStartsAt &&
          saleStartsAt.getTime() !== s.saleStartsAt.getTime() &&
          s.status !== SESSION_STATUS.PRESALE
        ) {
          throw appError('SESSION_STATE_INVALID', { field: 'saleStartsAt' }, '已开售的场次不能修改开售时间');
        }
        if (input.startsAt && startsAt.getTime() <= now.getTime())
          throw appError('VALIDATION_FAILED', { field: 'startsAt' }, '演出时间必须晚于当前时间');
        if (saleStartsAt >= startsAt)
          throw appError('VALIDATION_FAILED', { field: 'saleStartsAt' }, '开售时间必须早于演出开始时间');
        if (input.realName && !s.realName && (await repo.countLiveOrders(c, id)) > 0) {
          throw appError('EDIT_CONFLICT', { field: 'realName' }, '已有订单的场次不能改为实名制');
        }
        await repo
          .updateSession(c, id, {
            startsAt: input.startsAt ? startsAt : undefined,
            saleStartsAt: input.saleStartsAt ? saleStartsAt : undefined,
            holdMinutes: input.holdMinutes,
            purchaseLimit: input.purchaseLimit,
            realName: input.realName,
            queueEnabled: input.queueEnabled,
            queueRatePerMin: input.queueRatePerMin,
            rebindFreezeMinutes: input.rebindFreezeMinutes,
          })
          .catch(duplicateStart);
        return {
          before: repo.sessionAuditRow(s),
          after: repo.sessionAuditRow((await repo.findSession(c, id))!),
        };
      },
      (r) => ({
        action: 'session.update',
        entityType: 'session',
        entityId: id,
        before: r.before,
        after: r.after,
      }),
    );
    this.d.catalog.invalidate(id);
    return this.get(id);
  }

  /**
   * Replaces a session's tiers. While a sale is live the gate is closed for the change (so no
   * purchase can claim a seat between the check and the write), then Redis is rebuilt from
   * MySQL, which also reopens it.
   */
  async setTiers(who: Actor, id: string, tiers: TierSpec[], now: Date): Promise<AdminSessionDetail> {
    const s = await this.require(this.d.db, id);
    if (s.status === SESSION_STATUS.ENDED)
      throw appError('SESSION_STATE_INVALID', undefined, '场次已结束，不能修改票档');
    const selling = SELLING.includes(s.status);
    if (selling) {
      await this.d.inventory.setOpen(id, false);
      await sleep(this.d.settleMs);
    }
    try {
      await audited(
        this.d.db,
        who,
        now,
        (c) => this.applyTiers(c, id, s.showId, tiers),
        (r) => ({
          action: 'session.tiers',
          entityType: 'session',
          entityId: id,
          ...r,
        }),
      );
    } finally {
      this.d.catalog.invalidate(id);
      if (selling) await this.d.inventory.rebuild(id, now.getTime());
    }
    return this.get(id);
  }

  private async applyTiers(c: Conn, id: string, showId: string, tiers: TierSpec[]) {
    await this.require(c, id, true);
    const before = (await repo.sessionSummaryById(c, id))!.tiers;
    const cur = await repo.currentTiers(c, id, showId);
    const plan = planTiers(cur, tiers, await repo.claimsOf(c, id));
    const ids = new Map<string, string>();
    await repo.parkTierNames(c, id);
    for (const [i, t] of tiers.entries()) {
      const key = plan.keys[i]!;
      const row = { name: t.name, priceFen: t.priceFen, color: t.color ?? null, sortOrder: i };
      if (key.startsWith('new:')) {
        ids.set(key, await repo.insertTier(c, id, row));
      } else {
        await repo.updateTier(c, key, row);
        ids.set(key, key);
      }
    }
    const real = (key: string) => ids.get(key)!;
    await repo.writeMaps(
      c,
      id,
      new Map([...plan.seatTier].map(([seat, key]) => [seat, real(key)])),
      new Map([...plan.zoneTier].map(([zone, z]) => [zone, { ...z, tierId: real(z.tierId) }])),
    );
    await repo.deleteTiers(c, plan.deleted);
    const after = (await repo.sessionSummaryById(c, id))!.tiers;
    return { before, after };
  }

  /** Presale -> on sale through the catalog's openSale, which preheats Redis from MySQL. */
  async open(who: Actor, id: string, now: Date): Promise<AdminSessionDetail> {
    const s = await this.require(this.d.db, id);
    if (s.status !== SESSION_STATUS.PRESALE)
      throw appError('SESSION_STATE_INVALID', undefined, '只有预售中的场次可以开售');
    await openSale(this.d, id, now);
    const after = await this.require(this.d.db, id);
    if (after.status !== SESSION_STATUS.ON_SALE)
      throw appError('SESSION_STATE_INVALID', undefined, '场次状态已变化，请刷新');
    // openSale commits on its own connections, so its audit entry follows in a transaction of its own.
    await recordAudit(
      this.d.db,
      {
        actor: who,
        action: 'session.open',
        entityType: 'session',
        entityId: id,
        before: { status: 'presale' },
        after: { status: 'on_sale' },
      },
      now,
    );
    return this.get(id);
  }

  /** Ends the sale (and the session): nothing more can be bought. */
  async end(who: Actor, id: string, now: Date): Promise<AdminSessionDetail> {
    await this.changeLocked(
      who,
      id,
      now,
      async (c, s) => {
        const from = [SESSION_STATUS.PRESALE, ...SELLING];
        if (!from.includes(s.status)) throw appError('SESSION_STATE_INVALID', undefined, '场次已结束');
        await transitionSession(c, id, from, SESSION_STATUS.ENDED);
        return s.status;
      },
      (status) => ({
        action: 'session.end',
        entityType: 'session',
        entityId: id,
        before: { status: SESSION_STATUS_NAME[status] },
        after: { status: 'ended' },
      }),
    );
    await this.d.inventory.setOpen(id, false);
    this.d.catalog.invalidate(id);
    return this.get(id);
  }

  /** The seat map exactly as the fan's mini-program gets it. */
  async seatMap(id: string, now: Date): Promise<SeatMap> {
    return this.d.seatmaps.seatMap(id, now.getTime());
  }
}
