import { createHash } from 'node:crypto';
import type { SealedAttendee } from '../attendees/crypto';
import type { CatalogService } from '../catalog/service';
import type { SessionCatalog } from '../catalog/types';
import type { Db } from '../db/pool';
import type { InventoryService } from '../inventory/service';
import type { TakeRequest } from '../inventory/types';
import { buildOrder, type Units } from './create';
import { idTimeMs, type IdGenerator } from './ids';
import { orders } from './repo';
import { WriteError, type OrderWriter } from './writer';

/**
 * The idempotency key of a waiting-list offer's order: 'wl/<entry id>'. A fan's own keys can never
 * take this form ('/' is outside IdempotencyKeySchema), so no request can claim an offer's order.
 */
/** Longer than any order write takes (the group commit's batch and MySQL's answer). */
export const STALE_OFFER_MS = 60_000;

export const offerKey = (entryId: string): string => `wl/${entryId}`;

export function isOfferKey(key: string | null): boolean {
  return key !== null && key.startsWith('wl/');
}

export interface OfferDeps {
  db: Db;
  catalog: Pick<CatalogService, 'markSoldOut'>;
  writer: OrderWriter;
  inventory: InventoryService;
  ids: IdGenerator;
  holdGraceMs: number;
}

export interface HeldOrderRequest {
  cat: SessionCatalog;
  userId: string;
  units: Units;
  /** Stable per offer (the waiting-list entry): a rerun finds the same order. */
  idempotencyKey: string;
  now: Date;
  /** The order's hold ends then (the Redis hold outlives it by the grace period). */
  expireAt: Date;
  /**
   * A real-name session: one per unit, sealed. The gate checks their IDs as a purchase's (the
   * take script, then MySQL's attendee claims): an ID that holds a ticket is refused, ID_TAKEN.
   */
  attendees?: SealedAttendee[];
}

export type HeldOrderResult =
  | { kind: 'placed'; orderId: string }
  /** An earlier run already placed this offer's order (pending, paid or cancelled by now). */
  | { kind: 'existing'; orderId: string; status: number }
  /** The gate or MySQL said no (units taken meanwhile, limit, sale closed): nothing was held. */
  | { kind: 'refused'; code: string }
  /** Another run is writing this offer's order right now: try again later. */
  | { kind: 'busy' };

/**
 * A pending order placed by the server for a fan (a waiting-list offer), through exactly the
 * purchase's gate: one take script (hold, per-user limit, idempotency) and one group-committed
 * MySQL write with the unique claims as the backstop. No rate limits, cooldown or admission:
 * the fan did not ask for it now, the waiting list chose them. Idempotent by its key.
 */
export async function placeHeldOrder(
  d: OfferDeps,
  r: HeldOrderRequest,
  again = true,
): Promise<HeldOrderResult> {
  const existing = await findExisting(d, r);
  if (existing) return existing;
  const hash = createHash('sha256').update(`offer|${r.idempotencyKey}`).digest('hex');
  const take: TakeRequest = {
    sessionId: r.cat.id,
    orderId: d.ids.next(r.now.getTime()),
    userId: r.userId,
    nowMs: r.now.getTime(),
    holdUntilMs: r.expireAt.getTime() + d.holdGraceMs,
    limit: r.cat.purchaseLimit,
    idemField: `${r.userId}:${r.idempotencyKey}`,
    requestHash: hash,
    idHashes: (r.attendees ?? []).map((a) => a.idHash),
  };
  const taken =
    r.units.kind === 'seats'
      ? await d.inventory.lockSeats(take, r.units.seatIds)
      : await d.inventory.takeZone(take, r.units.zone.id, r.units.quantity);
  if (taken.kind === 'replay') {
    const found = await findExisting(d, r);
    if (found) return found;
    // No order in MySQL behind the key: another run is writing it now (busy), or an attempt's
    // write failed and its release was lost with Redis. That stale key would keep this fan's
    // offer from ever being made (and the line behind them waiting): past any write's time, it is
    // forgotten and the offer taken again, once. Should the old write land after all, MySQL's
    // unique (user, key) refuses the second order and the first is adopted (findExisting).
    if (again && r.now.getTime() - idTimeMs(taken.orderId) > STALE_OFFER_MS) {
      await d.inventory.release(r.cat.id, taken.orderId, true);
      return placeHeldOrder(d, r, false);
    }
    return { kind: 'busy' };
  }
  if (taken.kind === 'throttled') return { kind: 'busy' };
  if (taken.kind === 'refused') return { kind: 'refused', code: taken.code };
  const order = buildOrder({
    id: take.orderId,
    userId: r.userId,
    cat: r.cat,
    units: r.units,
    slots: taken.slots,
    idempotencyKey: r.idempotencyKey,
    requestHash: hash,
    now: r.now,
    expireAt: r.expireAt,
    attendees: r.attendees ?? [],
    admissionJti: null,
    admissionUntil: null,
    contactPhone: null,
  });
  try {
    await d.writer.write(order);
  } catch (err) {
    await d.inventory.release(r.cat.id, take.orderId, true);
    if (err instanceof WriteError && err.reason === 'idempotency_duplicate')
      return (await findExisting(d, r)) ?? { kind: 'busy' };
    if (err instanceof WriteError && err.reason !== 'error') return { kind: 'refused', code: err.reason };
    throw err;
  }
  // The offer took the last units: the session shows 已售罄 again, as after a purchase.
  if (taken.availAfter <= 0) await d.catalog.markSoldOut(r.cat.id);
  return { kind: 'placed', orderId: take.orderId };
}

async function findExisting(d: OfferDeps, r: HeldOrderRequest): Promise<HeldOrderResult | undefined> {
  const o = await orders.byIdempotencyKey(d.db, r.userId, r.idempotencyKey);
  return o ? { kind: 'existing', orderId: o.id, status: o.status } : undefined;
}
