import {
  PUBLIC_SHARE_MIN_PERCENT,
  seatLabel,
  type ReservationsView,
  type ReserveSeatsInput,
} from '@showtix/shared-types';
import type { Actor } from '../audit/actor';
import { audited, type AuditOf } from '../audit/tx';
import { SESSION_STATUS } from '../catalog/types';
import type { SessionCatalog } from '../catalog/types';
import { ER_DUP_ENTRY, sqlErrno, type Conn, type Db } from '../db/pool';
import { appError } from '../errors';
import type { CompDeps } from './deps';
import * as repo from './reserved-repo';

/** The most units of a session that may be held back: 15% of its tickets, rounded down. */
export function reservableMax(capacity: number): number {
  return Math.floor((capacity * (100 - PUBLIC_SHARE_MIN_PERCENT)) / 100);
}

/** Refuses a reservation that would leave less than 85% of the session on public sale. */
export function checkPublicShare(capacity: number, reservedAfter: number): void {
  const max = reservableMax(capacity);
  if (reservedAfter > max)
    throw appError('PUBLIC_SHARE_TOO_LOW', { capacity, reservedAfter, reservableMax: max });
}

/** Reservations change only before the session is over (ended, started or cancelled). */
export function refuseIfOver(s: repo.SessionLock | undefined, now: Date): repo.SessionLock {
  if (!s) throw appError('NOT_FOUND', undefined, '场次不存在');
  if (s.status === SESSION_STATUS.CANCELLED || s.status === SESSION_STATUS.ENDED)
    throw appError('SESSION_STATE_INVALID', { status: s.status }, '场次已结束或已取消');
  if (s.starts_at.getTime() <= now.getTime())
    throw appError('SESSION_STATE_INVALID', { status: 'started' }, '场次已开演');
  return s;
}

/**
 * An audited change to a session's reservations or comps: made under the session's row lock, and
 * refused once the session is over.
 */
export function auditedInSession<T>(
  db: Db,
  who: Actor,
  sessionId: string,
  now: Date,
  change: (c: Conn) => Promise<T>,
  entry: AuditOf<T>,
): Promise<T> {
  const locked = async (c: Conn) => {
    refuseIfOver(await repo.lockSession(c, sessionId), now);
    return change(c);
  };
  return audited(db, who, now, locked, entry);
}

const total = (r: { seats: string[]; zones: Map<string, number> }) =>
  r.seats.length + [...r.zones.values()].reduce((n, v) => n + v, 0);

/**
 * Units held back from public sale (sponsors, production). The Redis gate takes them first (in
 * the same script a fan's purchase would, so exactly one of the two wins a seat), then MySQL
 * records the reserved claims under the session's row lock, where the 85% public share is
 * checked against a count nobody else changes; if MySQL refuses, Redis gives them back.
 */
export class ReservationService {
  constructor(private readonly d: CompDeps) {}

  private async catalog(sessionId: string): Promise<SessionCatalog> {
    const cat = await this.d.catalog.session(sessionId);
    if (!cat) throw appError('NOT_FOUND', undefined, '场次不存在');
    return cat;
  }

  async view(sessionId: string): Promise<ReservationsView> {
    const cat = await this.catalog(sessionId);
    const reserved = await repo.reservedUnits(this.d.db, sessionId);
    const issued = new Set(await repo.issuedUnits(this.d.db, sessionId));
    const zoneIssued = new Map<string, number>();
    for (const u of issued) {
      const m = /^z(\d+):/.exec(u);
      if (m) zoneIssued.set(m[1]!, (zoneIssued.get(m[1]!) ?? 0) + 1);
    }
    const n = total(reserved);
    return {
      sessionId,
      capacity: cat.capacity,
      reserved: n,
      issued: issued.size,
      publicPercent: cat.capacity ? Math.floor(((cat.capacity - n) * 1000) / cat.capacity) / 10 : 100,
      reservableMax: reservableMax(cat.capacity),
      seats: reserved.seats.map((id) => {
        const s = cat.seats.get(id);
        return { seatId: id, label: s ? seatLabel(s) : id, issued: issued.has(repo.seatUnit(id)) };
      }),
      zones: [...cat.zones.values()].map((z) => ({
        zoneId: z.id,
        name: z.name,
        capacity: z.capacity,
        reserved: reserved.zones.get(z.id) ?? 0,
        issued: zoneIssued.get(z.id) ?? 0,
      })),
    };
  }

  /** Holds seats back; seats reserved already are left as they are (a retry changes nothing). */
  async reserveSeats(who: Actor, sessionId: string, input: ReserveSeatsInput, now: Date) {
    const cat = await this.catalog(sessionId);
    const seatIds = input.seatIds.map(String);
    const unknown = seatIds.filter((id) => !cat.seats.has(id));
    if (unknown.length) throw appError('VALIDATION_FAILED', { seatIds: unknown }, '座位不属于本场次');
    return this.reserving(
      who,
      sessionId,
      now,
      'reservation.seats.add',
      async (c, before) => {
        const add = seatIds.filter((id) => !before.seats.includes(id));
        checkPublicShare(cat.capacity, total(before) + add.length);
        if (!add.length) return { redis: [], detail: { seatIds: [] } };
        const r = await this.d.inventory.reserve(sessionId, { seatIds: add });
        if (r.kind === 'seat_taken')
          throw appError('SEAT_TAKEN', { seatId: r.seatId }, '座位已售出或被锁定，不能预留');
        if (r.kind !== 'reserved') throw appError('SERVICE_UNAVAILABLE');
        // Every seat of `add` is reserved in Redis now (newly, or by an earlier try MySQL lost).
        return {
          redis: r.units,
          write: () => repo.insertReservedSeats(c, sessionId, add),
          detail: { seatIds: add },
        };
      },
      (units) => ({ seatIds: units }),
    );
  }

  /** Sets how many units of a zone are held back (idempotent: the count, not a difference). */
  async setZone(who: Actor, sessionId: string, zoneId: string, target: number, now: Date) {
    const cat = await this.catalog(sessionId);
    const zone = cat.zones.get(zoneId);
    if (!zone) throw appError('NOT_FOUND', undefined, '区域不属于本场次');
    if (target > zone.capacity)
      throw appError('VALIDATION_FAILED', { capacity: zone.capacity }, '预留数超过区域容量');
    let released: string[] = [];
    await this.reserving(
      who,
      sessionId,
      now,
      'reservation.zone.set',
      async (c, before) => {
        const current = before.zones.get(zoneId) ?? 0;
        if (target <= current) {
          const slots = await repo.freeReservedSlots(c, sessionId, zoneId, current - target, 'DESC');
          if (slots.length < current - target)
            throw appError('UNIT_IN_USE', { issued: current - slots.length });
          await repo.deleteReservedSlots(c, sessionId, zoneId, slots);
          released = slots;
          return { redis: [], detail: { zoneId, from: current, to: target } };
        }
        checkPublicShare(cat.capacity, total(before) + target - current);
        const r = await this.d.inventory.reserve(sessionId, { zoneId, quantity: target - current });
        if (r.kind === 'sold_out') throw appError('SOLD_OUT', { left: r.left }, '该区域可预留的余票不足');
        if (r.kind !== 'reserved') throw appError('SERVICE_UNAVAILABLE');
        const write = () => repo.insertReservedSlots(c, sessionId, zoneId, r.units);
        return { redis: r.units, write, detail: { zoneId, from: current, to: target } };
      },
      (slots) => ({ zoneId, slots }),
    );
    if (released.length) await this.d.inventory.unreserve(sessionId, { zoneId, slots: released });
    return this.view(sessionId);
  }

  /** Puts reserved seats back on public sale (none may carry a live comp ticket). */
  async releaseSeats(who: Actor, sessionId: string, input: ReserveSeatsInput, now: Date) {
    const seatIds = input.seatIds.map(String);
    const freed = await auditedInSession(
      this.d.db,
      who,
      sessionId,
      now,
      async (c) => {
        const reserved = await repo.reservedSeatsLocked(c, sessionId, seatIds);
        const issued = new Set(await repo.issuedUnits(c, sessionId));
        const inUse = reserved.filter((id) => issued.has(repo.seatUnit(id)));
        if (inUse.length) throw appError('UNIT_IN_USE', { seatIds: inUse });
        await repo.deleteReservedSeats(c, sessionId, reserved);
        return reserved;
      },
      (ids) => ({
        action: 'reservation.seats.release',
        entityType: 'session',
        entityId: sessionId,
        after: { seatIds: ids },
      }),
    );
    // After the commit: until then a fan must not get them. A failure here leaves them reserved
    // in Redis only (the safe side) until the audit's or a flush's rebuild reads MySQL.
    await this.d.inventory.unreserve(sessionId, { seatIds: freed });
    return this.view(sessionId);
  }

  /**
   * One audited reservation change under the session lock. `change` takes units in Redis and
   * says what it took; if anything after fails (MySQL's key, the share, the commit), the units
   * Redis took go back. `undo` names them for the inventory (seats or a zone's slots).
   */
  private async reserving(
    who: Actor,
    sessionId: string,
    now: Date,
    action: string,
    change: (
      c: Conn,
      before: { seats: string[]; zones: Map<string, number> },
    ) => Promise<{ redis: string[]; write?: () => Promise<void>; detail: object }>,
    undo: (units: string[]) => { seatIds: string[] } | { zoneId: string; slots: string[] },
  ): Promise<ReservationsView> {
    let taken: string[] = [];
    try {
      await auditedInSession(
        this.d.db,
        who,
        sessionId,
        now,
        async (c) => {
          const r = await change(c, await repo.reservedUnits(c, sessionId));
          taken = r.redis;
          await r.write?.().catch((err: unknown) => {
            if (sqlErrno(err) === ER_DUP_ENTRY)
              throw appError('SEAT_TAKEN', undefined, '所选座位或名额已售出，不能预留');
            throw err;
          });
          return r.detail;
        },
        (detail) => ({ action, entityType: 'session', entityId: sessionId, after: detail }),
      );
    } catch (err) {
      if (taken.length) await this.d.inventory.unreserve(sessionId, undo(taken));
      throw err;
    }
    return this.view(sessionId);
  }
}
