import { LRUCache } from 'lru-cache';
import type { RefusalCode, TakeResult } from '../inventory/types';
import type { Units } from './create';

/** A refusal this instance can give without asking Redis, in the script's own terms. */
export interface CheapRefusal {
  code: RefusalCode;
  details?: Record<string, string | number>;
  /**
   * The seat's holder is another user: no idempotency key of this user can replay an order
   * holding it, so the refusal needs no look-up (see OrderService.cheapRefusal).
   */
  heldByOther?: boolean;
}

interface SessionFacts {
  /** seatId -> when this instance last learned the seat was held or sold, and by whom ('': unknown). */
  seats: Map<string, { at: number; holder: string }>;
  /** zoneId -> units the script said were left, and when. */
  zones: Map<string, { left: number; at: number }>;
  /** userId -> units the script said the user holds in this session, and when. */
  users: LRUCache<string, { used: number; at: number }>;
  soldOutAt: number;
  closedAt: number;
}

/** The seats a seat refusal named taken: the first, and the request's others (alsoTaken). */
function learnSeats(f: SessionFacts, r: Extract<TakeResult, { kind: 'refused' }>, at: number): void {
  if (r.named !== undefined) f.seats.set(String(r.named), { at, holder: r.holder ?? '' });
  for (const s of r.alsoTaken ?? []) f.seats.set(s.seatId, { at, holder: s.holder });
}

/** Sessions whose facts are kept (far more than sell at once on one instance). */
const SESSIONS_MAX = 500;
/** Users whose "already holds n" is kept, per session. */
const USERS_MAX = 10_000;
const NEVER = -Infinity;

/**
 * What this instance already knows makes a purchase fail: a seat held or sold, a zone or the
 * session sold out, a user at the purchase limit, a sale not open. In a flash sale most
 * purchases are refused, and this refuses them before the expensive path (rate counters,
 * idempotency hash, the take script) at almost no cost.
 *
 * Learned only from the take script's own answers on this instance (the seats it held, every
 * taken seat of a request it refused, units left, the count held, not on sale), each fact kept
 * for maxAgeMs of real time (`refusalSnapshotMaxAgeMs`, README): the staleness bound. The
 * script stays the only authority for a success: nothing here ever lets a purchase through, it
 * only refuses. A release, an opening or a rebuild through any instance drops the session's
 * facts on every instance at once (forget, through the cache-invalidation channel, wiring.ts; a
 * subscriber back from a lost connection drops everything), and an answer asked before a forget
 * is not learned after it (epoch). What the bound still costs: a seat, units or an opening whose
 * message could not be published (Redis down just then), or a hold past its end not yet released
 * by the expiry job (it runs every second, ahead of the Redis hold's own end), may be refused
 * here for up to maxAgeMs after the change. maxAgeMs 0 turns cheap refusals off.
 */
export class RefusalSnapshot {
  private readonly sessions = new LRUCache<string, SessionFacts>({ max: SESSIONS_MAX });
  /** How many times facts were dropped (forget): an answer asked before one is not learned. */
  private forgets = 0;

  constructor(
    readonly maxAgeMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The refusal the script would answer, as far as this instance knows; undefined: ask it. */
  refusal(sessionId: string, userId: string, units: Units, limit: number): CheapRefusal | undefined {
    if (this.maxAgeMs <= 0) return undefined;
    const f = this.sessions.get(sessionId);
    if (!f) return undefined;
    const since = this.now() - this.maxAgeMs;
    if (f.closedAt > since) return { code: 'NOT_ON_SALE' };
    const qty = units.kind === 'seats' ? units.seatIds.length : units.quantity;
    const used = f.users.get(userId);
    if (used && used.at > since && used.used + qty > limit)
      return { code: 'LIMIT_EXCEEDED', details: { alreadyHeld: used.used } };
    if (units.kind === 'zone') {
      const z = f.zones.get(units.zone.id);
      if (f.soldOutAt > since || (z && z.at > since && z.left < qty)) return { code: 'SOLD_OUT' };
      return undefined;
    }
    for (const seatId of units.seatIds) {
      const seat = f.seats.get(seatId);
      if (seat === undefined || seat.at <= since) continue;
      const heldByOther = seat.holder !== '' && seat.holder !== userId;
      return f.soldOutAt > since
        ? { code: 'SOLD_OUT', heldByOther }
        : { code: 'SEAT_TAKEN', details: { seatId }, heldByOther };
    }
    return undefined;
  }

  /** Taken before asking the take script, and given back to learn with its answer. */
  epoch(): number {
    return this.forgets;
  }

  /**
   * Keeps what a take script answered on this instance, unless facts were dropped since it was
   * asked (askedAt, from epoch()): a seat the script named taken just before a release, learned
   * just after the release's forget, would be refused here though free. Any session's forget
   * counts, not only this one's: forgets are rare in a sale (units coming back), and a skipped
   * fact only means the script is asked again.
   */
  learn(sessionId: string, userId: string, units: Units, r: TakeResult, askedAt: number): void {
    if (this.maxAgeMs <= 0 || askedAt !== this.forgets) return;
    const at = this.now();
    const f = this.facts(sessionId);
    if (r.kind === 'taken') {
      if (units.kind === 'seats') for (const id of units.seatIds) f.seats.set(id, { at, holder: userId });
      if (r.availAfter <= 0) f.soldOutAt = at;
      return;
    }
    if (r.kind !== 'refused') return;
    switch (r.code) {
      case 'SEAT_TAKEN':
        learnSeats(f, r, at);
        return;
      case 'SOLD_OUT':
        // Seats: the script named the taken seats and found nothing left in the session.
        if (units.kind === 'seats') {
          f.soldOutAt = at;
          learnSeats(f, r, at);
        } else if (r.named !== undefined) f.zones.set(units.zone.id, { left: Number(r.named), at });
        return;
      case 'NOT_ON_SALE':
        f.closedAt = at;
        return;
      case 'LIMIT_EXCEEDED':
        if (r.named !== undefined) f.users.set(userId, { used: Number(r.named), at });
        return;
      default:
    }
  }

  /** Units came back or the sale opened through this instance: its facts may be wrong now. */
  forget(sessionId: string): void {
    this.forgets++;
    if (sessionId === '*') this.sessions.clear();
    else this.sessions.delete(sessionId);
  }

  private facts(sessionId: string): SessionFacts {
    let f = this.sessions.get(sessionId);
    if (!f) {
      const users = new LRUCache<string, { used: number; at: number }>({ max: USERS_MAX });
      f = { seats: new Map(), zones: new Map(), users, soldOutAt: NEVER, closedAt: NEVER };
      this.sessions.set(sessionId, f);
    }
    return f;
  }
}
