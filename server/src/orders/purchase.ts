import { AppError, appError } from '../errors';
import type { InventoryService } from '../inventory/service';
import type { TakeRequest, TakeResult } from '../inventory/types';
import { workflow } from '../lifecycle/workflow';
import { holdCooldown, rateLimited } from '../risk/limits';
import type { Units } from './create';
import type { RefusalSnapshot } from './refusals';
import type { NewOrder } from './types';
import { WriteError, type OrderWriter } from './writer';

export interface PurchaseDeps {
  inventory: InventoryService;
  writer: OrderWriter;
  refusals: RefusalSnapshot;
}

/** One purchase as it goes through the workflow's steps. */
export interface Purchase {
  d: PurchaseDeps;
  take: TakeRequest;
  units: Units;
  /** The waiting-room turn this order uses: given back with the holds when its id collided. */
  admissionJti: string | undefined;
  /** The order, from the slots the hold got (zone units are numbered by the script). */
  build: (slots: number[]) => NewOrder;
  /** Set by the hold: the units taken for this order. */
  taken?: Extract<TakeResult, { kind: 'taken' }>;
  /** Set by the hold: an earlier request with the same key booked this order (nothing taken). */
  replayOf?: string;
  /** Set by the record step: the order as written. */
  order?: NewOrder;
  /** Set by the record step: the id was another order's (no fault of the buyer). */
  collided?: boolean;
}

/**
 * A purchase once the cheap refusals are behind it, as named steps (lifecycle/workflow.ts):
 *  1. hold the units in Redis: the take script alone decides (seats, limit, idempotency, rates,
 *     cooldown, admission). Compensation: give the units back, and the waiting-room turn too
 *     when the order id collided.
 *  2. record the order in MySQL: the group commit, whose unique claims are the backstop against
 *     a double sale when Redis is wrong. One transaction: nothing of its own to undo.
 * A refusal by the script (an AppError) held nothing and is not compensated. Anything that fails
 * after Redis said yes is: the buyer is told the purchase failed, so its seats must not stay off
 * sale. A commit whose answer was lost is the one case where the order may exist after all: its
 * retry (same key) finds it and Redis learns it again (orders/replay.ts relearn).
 */
export const PURCHASE = workflow<Purchase>(
  'purchase',
  [
    { name: 'hold units in Redis', run: holdUnits, compensate: giveBackUnits },
    { name: 'record the order in MySQL', run: recordOrder },
  ],
  (err) => !(err instanceof AppError),
);

async function holdUnits(p: Purchase): Promise<void> {
  const { take, units } = p;
  const asked = p.d.refusals.epoch();
  const r =
    units.kind === 'seats'
      ? await p.d.inventory.lockSeats(take, units.seatIds)
      : await p.d.inventory.takeZone(take, units.zone.id, units.quantity);
  if (r.kind === 'replay') {
    p.replayOf = r.orderId;
    return;
  }
  p.d.refusals.learn(take.sessionId, take.userId, units, r, asked);
  if (r.kind === 'throttled')
    throw r.code === 'RATE_LIMITED' ? rateLimited(r.retryAfterMs) : holdCooldown(r.retryAfterMs);
  if (r.kind === 'refused') throw appError(r.code, r.details);
  p.taken = r;
}

async function giveBackUnits(p: Purchase): Promise<void> {
  if (!p.taken) return;
  await p.d.inventory.release(
    p.take.sessionId,
    p.take.orderId,
    true,
    p.collided ? p.admissionJti : undefined,
  );
}

async function recordOrder(p: Purchase): Promise<void> {
  if (!p.taken) return; // a replay: the earlier request records its order
  p.order = p.build(p.taken.slots);
  try {
    await p.d.writer.write(p.order);
  } catch (err) {
    p.collided = err instanceof WriteError && err.reason === 'order_id_collision';
    throw err;
  }
}
