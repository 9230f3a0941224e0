import type { Logger } from 'pino';
import type { CatalogService } from '../catalog/service';
import { SESSION_STATUS, type SessionCatalog } from '../catalog/types';
import { inTransaction, type Db } from '../db/pool';
import type { InventoryService } from '../inventory/service';
import { ORDER_STATUS } from '../lifecycle/statuses';
import { WAITLIST_LIFECYCLE, tryMove } from '../lifecycle/transitions';
import type { Units } from '../orders/create';
import { offerKey, placeHeldOrder, type OfferDeps } from '../orders/offer';
import { enqueue } from '../outbox/repo';
import { attendeesOf, endEntry } from './attendee-repo';
import { offeredEntries, waitingLine, waitingPerTier, type EntryRow } from './repo';

export interface OfferRunDeps {
  db: Db;
  catalog: CatalogService;
  inventory: InventoryService;
  offer: OfferDeps;
  log: Logger;
  offerMs: number;
}

/** Entries looked at per tier and run (the rest wait for the next run). */
const LINE_BATCH = 200;

/** Refusals that end an entry: the fan can never be offered these units (limit reached). */
const ENDING = new Set(['LIMIT_EXCEEDED', 'limit', 'show_limit']);

/**
 * Refusals that end a real-name entry: an attendee's ID got a ticket (or a pending order) of the
 * session meanwhile (the take script's ID check, or MySQL's attendee claims). One ID, one ticket:
 * this entry can never be offered; its units pass on to the next fan in the same run.
 */
const ATTENDEE_TAKEN = new Set(['ID_TAKEN', 'id_taken']);

/** What is free in one tier, as units an offer can take. */
type Free = { kind: 'seats'; seatIds: string[] } | { kind: 'zones'; zones: { id: string; free: number }[] };

/**
 * One pass over a session's waiting lists: offers that ended are settled, then every tier's
 * free units are offered in join order, then Redis learns the new line lengths.
 *
 * Invariant: a returned unit is either held for exactly one waiting fan or back on sale, never
 * both. An offer is a pending order taken through the purchase's own gate (the take script, then
 * MySQL's unique claims): if a direct buyer or another run took a unit first, the offer is
 * refused and nothing is held. An entry moves WAITING -> OFFERED only by a conditional update,
 * and its order's idempotency key is the entry's (offerKey: 'wl/<id>'), so two runs (two instances, or a
 * rerun after a crash between the order and the entry's update) make one order, not two.
 */
export async function runSession(d: OfferRunDeps, sessionId: string, now: Date): Promise<number> {
  await settleOffers(d, sessionId, now);
  const cat = await d.catalog.requireSession(sessionId);
  let offered = 0;
  if (cat.status === SESSION_STATUS.ON_SALE || cat.status === SESSION_STATUS.SOLD_OUT) {
    for (const tierId of (await waitingPerTier(d.db, sessionId)).keys())
      offered += await offerTier(d, cat, tierId, now);
  } else if (cat.status === SESSION_STATUS.ENDED || cat.status === SESSION_STATUS.CANCELLED) {
    await endLines(d, sessionId, now);
  }
  await refreshLines(d, cat, await waitingPerTier(d.db, sessionId));
  return offered;
}

/**
 * The catalog carries the tiers with a line (the purchase refuses them with WAITLIST_FIRST):
 * every instance drops its copy when that set changed, and only then (an offer run follows every
 * release; a flash sale must not reload its catalog for each).
 */
export async function refreshLines(
  d: Pick<OfferRunDeps, 'catalog'>,
  cat: SessionCatalog,
  waiting: Map<string, number>,
): Promise<void> {
  const now = [...waiting.keys()].filter((t) => (waiting.get(t) ?? 0) > 0);
  const same = now.length === cat.waitlistedTiers.size && now.every((t) => cat.waitlistedTiers.has(t));
  if (!same) d.catalog.invalidate(cat.id);
}

/** Offers whose order was paid, expired or cancelled leave the OFFERED state. */
async function settleOffers(d: OfferRunDeps, sessionId: string, now: Date): Promise<void> {
  for (const e of await offeredEntries(d.db, sessionId)) {
    const paid = [ORDER_STATUS.PAID, ORDER_STATUS.TICKETED, ORDER_STATUS.REFUNDED] as number[];
    const t = paid.includes(e.order_status)
      ? WAITLIST_LIFECYCLE.fulfil
      : e.order_status === ORDER_STATUS.CANCELLED
        ? e.cancel_reason === 'buyer'
          ? WAITLIST_LIFECYCLE.decline
          : WAITLIST_LIFECYCLE.lapse
        : undefined;
    if (t) await endEntry(d.db, e.id, t, now);
  }
}

async function endLines(d: OfferRunDeps, sessionId: string, now: Date): Promise<void> {
  for (const tierId of (await waitingPerTier(d.db, sessionId)).keys())
    for (const e of await waitingLine(d.db, sessionId, tierId, LINE_BATCH))
      await endEntry(d.db, e.id, WAITLIST_LIFECYCLE.end, now, 'sale_stopped');
}

/**
 * The tier's free units go to its line in join order; an entry asking for more than is free is
 * passed over (a fan waiting for one ticket is not kept waiting behind a fan who wants four),
 * and keeps its place for the next units that come back. A real-name entry's order carries the
 * attendees it joined with.
 */
async function offerTier(d: OfferRunDeps, cat: SessionCatalog, tierId: string, now: Date): Promise<number> {
  const free = await freeUnits(d, cat, tierId, now);
  let offered = 0;
  for (const e of await waitingLine(d.db, cat.id, tierId, LINE_BATCH)) {
    if (freeCount(free) === 0) break;
    const units = pick(cat, free, e.quantity);
    if (!units) continue;
    const r = await placeHeldOrder(d.offer, {
      cat,
      userId: e.user_id,
      units,
      idempotencyKey: offerKey(e.id),
      now,
      expireAt: new Date(now.getTime() + d.offerMs),
      ...(cat.realName ? { attendees: await attendeesOf(d.db, e.id) } : {}),
    });
    // This fan's offer is being written (or its key goes stale, orders/offer.ts): the units wait
    // for them; offering them to a fan behind would let that fan jump the line.
    if (r.kind === 'busy') break;
    if (r.kind === 'refused') {
      const reason = ENDING.has(r.code) ? 'limit' : ATTENDEE_TAKEN.has(r.code) ? 'attendee_taken' : undefined;
      if (reason) {
        // Nothing was held for this entry: its units go on to the next fan in line.
        putBack(free, units);
        await endEntry(d.db, e.id, WAITLIST_LIFECYCLE.end, now, reason);
        continue;
      }
      // Units taken meanwhile (a direct buyer, another run): look again on the next run.
      d.log.info({ sessionId: cat.id, tierId, code: r.code }, 'waitlist offer refused by the gate');
      break;
    }
    if (await markOffered(d, e, r.orderId, now)) offered++;
  }
  return offered;
}

/** WAITING -> OFFERED with its order, and the fan's notice (sent only with their consent), at once. */
async function markOffered(d: OfferRunDeps, e: EntryRow, orderId: string, now: Date): Promise<boolean> {
  return inTransaction(d.db, async (conn) => {
    const moved = await tryMove(conn, 'waitlist_entries', e.id, WAITLIST_LIFECYCLE.offer, {
      order_id: orderId,
      offered_at: now,
    });
    if (moved)
      await enqueue(conn, 'notice.send', `wl-${e.id}`, {
        userId: e.user_id,
        template: 'waiting_list_offer',
        orderId,
      });
    return moved;
  });
}

/** Free units of a tier in Redis now (a hold past its time counts as free, as for a buyer). */
async function freeUnits(d: OfferRunDeps, cat: SessionCatalog, tierId: string, now: Date): Promise<Free> {
  const zones = [...cat.zones.values()].filter((z) => z.tierId === tierId);
  let states = await d.inventory.states(
    cat.id,
    zones.map((z) => z.id),
    now.getTime(),
  );
  if (!states.loaded) {
    await d.inventory.rebuild(cat.id, now.getTime());
    states = await d.inventory.states(
      cat.id,
      zones.map((z) => z.id),
      now.getTime(),
    );
  }
  if (zones.length)
    return { kind: 'zones', zones: zones.map((z) => ({ id: z.id, free: states.zones.get(z.id) ?? 0 })) };
  const taken = new Set([...states.held, ...states.sold]);
  const seatIds = [...cat.seats.entries()]
    .filter(([id, s]) => s.tierId === tierId && !taken.has(id))
    .map(([id]) => id);
  return { kind: 'seats', seatIds };
}

/** Units an offer did not take go back to the run's free units (seats first in line again). */
function putBack(free: Free, units: Units): void {
  if (free.kind === 'seats' && units.kind === 'seats') free.seatIds.unshift(...units.seatIds);
  else if (free.kind === 'zones' && units.kind === 'zone')
    free.zones.find((z) => z.id === units.zone.id)!.free += units.quantity;
}

function freeCount(f: Free): number {
  return f.kind === 'seats' ? f.seatIds.length : f.zones.reduce((n, z) => n + z.free, 0);
}

/** Takes `quantity` units out of `free` (seats in layout order; one zone for a zone order). */
function pick(cat: SessionCatalog, free: Free, quantity: number): Units | undefined {
  if (free.kind === 'seats') {
    if (free.seatIds.length < quantity) return undefined;
    return { kind: 'seats', seatIds: free.seatIds.splice(0, quantity) };
  }
  const z = free.zones.find((x) => x.free >= quantity);
  if (!z) return undefined;
  z.free -= quantity;
  return { kind: 'zone', zone: cat.zones.get(z.id)!, quantity };
}
