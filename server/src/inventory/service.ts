import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import { RC } from '../redis/codes';
import { scriptKeys, type Keys } from '../redis/keys';
import type { ScriptReply, ScriptedRedis } from '../redis/scripts';
import {
  confirmOrder,
  moveAttendee,
  moveIds,
  releaseOrder,
  releaseUnits,
  reserveUnits,
  retakeOrder,
  unreserveUnits,
  type ReserveResult,
} from '../redis/contract';
import { idemValue, orderRecord, seatValue } from '../redis/records';
import { rebuildSession } from './rebuild';
import {
  rateArgs,
  type ConfirmMode,
  type ConfirmResult,
  type LiveStates,
  type RefusalCode,
  type ReleaseResult,
  type TakeRequest,
  type TakeResult,
} from './types';

/** The one place where script refusals become API error codes (with what the script said). */
const REFUSALS: Partial<Record<RC, { code: RefusalCode; detail?: string }>> = {
  [RC.NOT_ON_SALE]: { code: 'NOT_ON_SALE' },
  [RC.SEAT_TAKEN]: { code: 'SEAT_TAKEN', detail: 'seatId' },
  [RC.SOLD_OUT]: { code: 'SOLD_OUT' },
  [RC.LIMIT_EXCEEDED]: { code: 'LIMIT_EXCEEDED', detail: 'alreadyHeld' },
  [RC.IDEMPOTENCY_CONFLICT]: { code: 'IDEMPOTENCY_CONFLICT' },
  [RC.ADMISSION_USED]: { code: 'QUEUE_REQUIRED' },
  [RC.ID_TAKEN]: { code: 'ID_TAKEN' },
};

export interface InventoryOptions {
  holdGraceMs: number;
  rebuildSettleMs: number;
}

/**
 * The gate in front of MySQL: seat holds, general-admission stock and purchase limits, each
 * decided by one Lua script. When a session's keys are missing (Redis restarted or flushed)
 * the first caller rebuilds them from MySQL and everyone retries once.
 */
export class InventoryService {
  private readonly rebuilding = new Map<string, Promise<void>>();
  private readonly freedListeners: ((sessionId: string) => void)[] = [];

  constructor(
    private readonly redis: ScriptedRedis,
    private readonly keys: Keys,
    private readonly db: Db,
    private readonly log: Logger,
    private readonly opts: InventoryOptions,
  ) {}

  /**
   * Called when units of a session may have come back or its sale opened through this instance
   * (a release, opening, a rebuild): what was learned about it may be wrong now.
   */
  onFreed(fn: (sessionId: string) => void): void {
    this.freedListeners.push(fn);
  }

  private freed(sessionId: string): void {
    for (const fn of this.freedListeners) fn(sessionId);
  }

  lockSeats(req: TakeRequest, seatIds: string[]): Promise<TakeResult> {
    return this.take(req, 'lockSeats', seatIds);
  }

  takeZone(req: TakeRequest, zoneId: string, quantity: number): Promise<TakeResult> {
    return this.take(req, 'takeZone', [zoneId, quantity]);
  }

  /** The purchase: one script call (and a rebuild first if Redis lost the session). */
  private async take(
    req: TakeRequest,
    script: 'lockSeats' | 'takeZone',
    units: (string | number)[],
  ): Promise<TakeResult> {
    const k = this.keys.session(req.sessionId);
    const r = req.rates ?? {};
    const keys = scriptKeys.take(
      k,
      script === 'lockSeats' ? k.seats : k.zslots,
      req.admission?.jti ?? '',
      req.cooldown ? req.userId : '-',
      { u: r.user?.subject, d: r.device?.subject, i: r.ip?.subject },
    );
    const reply = await this.withRebuild(req.sessionId, () =>
      this.redis[script](...keys, ...takeArgs(req), ...units),
    );
    return toTakeResult(reply);
  }

  async confirm(sessionId: string, orderId: string, mode: ConfirmMode): Promise<ConfirmResult> {
    return confirmOrder(this.redis, this.keys.session(sessionId), { orderId, mode });
  }

  /**
   * forget: the order never reached MySQL, so its idempotency key must be usable again.
   * returnTurn: the jti of the admission token the order used, to give the buyer's turn back.
   */
  async release(
    sessionId: string,
    orderId: string,
    forget: boolean,
    returnTurn?: string,
  ): Promise<ReleaseResult> {
    const k = this.keys.session(sessionId);
    const released = await releaseOrder(this.redis, k, { orderId, forget, returnTurn: returnTurn ?? '' });
    this.freed(sessionId);
    return released;
  }

  /** Some units of a sold order (seat ids or slot numbers): a per-ticket refund succeeded. */
  async releaseUnits(sessionId: string, orderId: string, units: string[]): Promise<ReleaseResult> {
    const released = await releaseUnits(this.redis, this.keys.session(sessionId), { orderId, units });
    this.freed(sessionId);
    return released;
  }

  /** Real-name IDs of an order moved to another order of the session, or given up (''): 改签. */
  moveIds(sessionId: string, fromOrderId: string, toOrderId: string, idHashes: string[]): Promise<number> {
    return moveIds(this.redis, this.keys.session(sessionId), { fromOrderId, toOrderId, idHashes });
  }

  /**
   * A real-name attendee of an order re-bound to another ID (a transfer accepted; MySQL moved the
   * claim first). 'unknown': the session or order is not in Redis; a rebuild reads MySQL.
   */
  async moveAttendee(sessionId: string, orderId: string, fromHash: string, toHash: string) {
    return moveAttendee(this.redis, this.keys.session(sessionId), { orderId, fromHash, toHash });
  }

  /**
   * Holds units back from public sale (comp/service.ts reserves them in MySQL next): seats
   * (kind 's') or `quantity` free units of a zone (kind: the zone id). Rebuilds a lost session.
   */
  async reserve(
    sessionId: string,
    units: { seatIds: string[] } | { zoneId: string; quantity: number },
  ): Promise<ReserveResult> {
    const k = this.keys.session(sessionId);
    const a =
      'seatIds' in units
        ? { kind: 's', quantity: 0, seatIds: units.seatIds }
        : { kind: units.zoneId, quantity: units.quantity, seatIds: [] };
    let r = await reserveUnits(this.redis, k, a);
    if (r.kind === 'not_ready') {
      await this.rebuild(sessionId);
      r = await reserveUnits(this.redis, k, a);
    }
    return r;
  }

  /**
   * Puts reserved units back on public sale (their reserved claims are gone from MySQL), or
   * gives back what a reservation MySQL refused took. A session not loaded has nothing to free.
   */
  async unreserve(sessionId: string, units: { seatIds: string[] } | { zoneId: string; slots: string[] }) {
    const k = this.keys.session(sessionId);
    const a =
      'seatIds' in units ? { kind: 's', units: units.seatIds } : { kind: units.zoneId, units: units.slots };
    const r = await unreserveUnits(this.redis, k, a);
    this.freed(sessionId);
    return r;
  }

  /**
   * A live complimentary ticket's ID (real-name): taken in Redis as a buyer's would be, so the
   * gate refuses the same ID (MySQL's attendee_claims is the backstop); `taken` false frees it.
   */
  async markCompId(sessionId: string, idHash: string, orderId: string, taken: boolean): Promise<void> {
    const key = this.keys.session(sessionId).ids;
    if (taken) await this.redis.hsetnx(key, idHash, orderId);
    else if ((await this.redis.hget(key, idHash)) === orderId) {
      await this.redis.hdel(key, idHash);
      this.freed(sessionId); // refusals learned for this ID are wrong now
    }
  }

  /**
   * Holds a released order's units again (a payment arrived after it was cancelled). Seats must
   * be free; a zone order may get other slot numbers, returned in `slots`.
   */
  async retake(
    sessionId: string,
    orderId: string,
    userId: string,
    units: { seatIds: string[] } | { zoneId: string; quantity: number },
    idHashes: string[],
    nowMs: number,
  ): Promise<TakeResult | { kind: 'already' }> {
    const k = this.keys.session(sessionId);
    const order = { orderId, userId, nowMs, holdUntilMs: nowMs + this.opts.holdGraceMs, idHashes };
    const kind =
      'seatIds' in units
        ? { kind: 's' as const, seatIds: units.seatIds }
        : { kind: `z${units.zoneId}` as const, quantity: units.quantity };
    const reply = await this.withRebuild(sessionId, () => retakeOrder(this.redis, k, { ...order, ...kind }));
    if (reply[0] === RC.ALREADY) return { kind: 'already' };
    return toTakeResult(reply);
  }

  /** What an order holds in Redis: its record's state and units (seat ids or slot numbers). */
  async heldUnits(
    sessionId: string,
    orderId: string,
  ): Promise<{ state: string; units: string[] } | undefined> {
    const rec = await this.redis.hget(this.keys.session(sessionId).orders, orderId);
    if (!rec) return undefined;
    const r = orderRecord.decode(rec);
    return { state: r.state, units: r.units };
  }

  /** The Redis record state ('H' held, 'S' sold, 'R' released) of each order that has one. */
  async recordStates(sessionId: string, orderIds: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (orderIds.length === 0) return out;
    const recs = await this.redis.hmget(this.keys.session(sessionId).orders, ...orderIds);
    recs.forEach((rec, i) => rec && out.set(orderIds[i]!, orderRecord.stateOf(rec)));
    return out;
  }

  /** Opens or closes selling without touching stock (admin, sale start, session end). */
  async setOpen(sessionId: string, open: boolean): Promise<void> {
    const k = this.keys.session(sessionId);
    if (open || (await this.redis.exists(k.meta))) await this.redis.hset(k.meta, 'open', open ? '1' : '0');
    this.freed(sessionId);
  }

  async isLoaded(sessionId: string): Promise<boolean> {
    return (await this.redis.hexists(this.keys.session(sessionId).meta, 'open')) === 1;
  }

  async availability(sessionId: string): Promise<number | undefined> {
    const v = await this.redis.hget(this.keys.session(sessionId).meta, 'avail');
    return v === null ? undefined : Number(v);
  }

  /** The order an idempotency key booked in this session, if it still holds it. */
  async idempotentOrder(sessionId: string, idemField: string): Promise<string | undefined> {
    const v = await this.redis.hget(this.keys.session(sessionId).idem, idemField);
    return v ? idemValue.orderOf(v) : undefined;
  }

  /** Orders whose Redis hold ended before `beforeMs` (candidates for the orphan sweep). */
  async staleHolds(sessionId: string, beforeMs: number, limit: number): Promise<string[]> {
    return this.redis.zrangebyscore(
      this.keys.session(sessionId).pending,
      '-inf',
      beforeMs,
      'LIMIT',
      0,
      limit,
    );
  }

  async states(sessionId: string, zoneIds: string[], nowMs: number): Promise<LiveStates> {
    const k = this.keys.session(sessionId);
    const pipe = this.redis.pipeline().hexists(k.meta, 'open').hgetall(k.seats);
    for (const z of zoneIds) pipe.zcount(k.zslots, z, z);
    const res = (await pipe.exec())!.map(([err, v]) => {
      if (err) throw err;
      return v;
    });
    const held: string[] = [];
    const sold: string[] = [];
    const seats = res[1] as Record<string, string>;
    for (const id in seats) {
      const v = seats[id]!;
      if (seatValue.isSold(v)) sold.push(id);
      else if (seatValue.isLiveHold(v, nowMs)) held.push(id);
    }
    const zones = new Map(zoneIds.map((z, i) => [z, Number(res[2 + i])]));
    return { held, sold, zones, loaded: res[0] === 1 };
  }

  /** Rebuilds one session from MySQL; concurrent callers in this instance share one run. */
  rebuild(sessionId: string, nowMs = Date.now()): Promise<void> {
    let running = this.rebuilding.get(sessionId);
    if (!running) {
      running = this.rebuildExclusive(sessionId, nowMs).finally(() => {
        this.rebuilding.delete(sessionId);
        this.freed(sessionId);
      });
      this.rebuilding.set(sessionId, running);
    }
    return running;
  }

  private async rebuildExclusive(sessionId: string, nowMs: number): Promise<void> {
    const k = this.keys.session(sessionId);
    // One instance rebuilds; the others wait for its meta key to appear.
    const token = `${process.pid}:${Math.random()}`;
    if ((await this.redis.set(k.rebuildLock, token, 'PX', 30_000, 'NX')) !== 'OK') {
      await this.waitForMeta(k.meta);
      return;
    }
    try {
      // In-flight orders that passed the old gate finish their MySQL writes before the snapshot.
      if (this.opts.rebuildSettleMs > 0) await sleep(this.opts.rebuildSettleMs);
      await rebuildSession(this.db, this.redis, k, sessionId, nowMs, this.opts.holdGraceMs);
      this.log.warn({ sessionId }, 'inventory rebuilt from MySQL');
    } finally {
      if ((await this.redis.get(k.rebuildLock)) === token) await this.redis.del(k.rebuildLock);
    }
  }

  private async waitForMeta(metaKey: string): Promise<void> {
    for (let i = 0; i < 100; i++) {
      if (await this.redis.hexists(metaKey, 'open')) return;
      await sleep(100);
    }
  }

  private async withRebuild(sessionId: string, run: () => Promise<ScriptReply>): Promise<ScriptReply> {
    const first = await run();
    if (first[0] !== RC.NOT_READY) return first;
    await this.rebuild(sessionId);
    return run();
  }
}

/** ARGV of the take scripts up to the units (see lockSeats-12.lua). */
export function takeArgs(r: TakeRequest): (string | number)[] {
  const ids = r.idHashes ?? [];
  return [
    r.orderId,
    r.userId,
    r.nowMs,
    r.holdUntilMs,
    r.limit,
    r.idemField,
    r.requestHash,
    r.admission?.ttlMs ?? 0,
    ...rateArgs(r.rates),
    ids.length,
    ...ids,
  ];
}

function toTakeResult(reply: ScriptReply): TakeResult {
  const [code, ...rest] = reply;
  if (code === RC.LOCKED)
    return { kind: 'taken', availAfter: Number(rest[0]), slots: rest.slice(1).map(Number) };
  if (code === RC.REPLAY) return { kind: 'replay', orderId: String(rest[0]) };
  if (code === RC.RATE_LIMITED || code === RC.HOLD_COOLDOWN)
    return {
      kind: 'throttled',
      code: code === RC.RATE_LIMITED ? 'RATE_LIMITED' : 'HOLD_COOLDOWN',
      retryAfterMs: Number(rest[0]),
    };
  const refusal = REFUSALS[code as RC];
  if (refusal) {
    const details = refusal.detail && rest[0] !== undefined ? { [refusal.detail]: rest[0] } : undefined;
    const named = rest[0] !== undefined ? { named: rest[0] } : {};
    const holder = rest[1] ? { holder: String(rest[1]) } : {};
    const also = rest.length > 2 ? { alsoTaken: seatPairs(rest.slice(2)) } : {};
    return {
      kind: 'refused',
      code: refusal.code,
      ...(details ? { details } : {}),
      ...named,
      ...holder,
      ...also,
    };
  }
  // NOT_READY twice in a row: the rebuild did not finish in time.
  return { kind: 'refused', code: 'SERVICE_UNAVAILABLE', details: { rc: code } };
}

/** A seat refusal's tail: seatId, holder, seatId, holder, ... */
function seatPairs(flat: unknown[]): { seatId: string; holder: string }[] {
  const out: { seatId: string; holder: string }[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2)
    out.push({ seatId: String(flat[i]), holder: String(flat[i + 1]) });
  return out;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
