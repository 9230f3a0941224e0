import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import type { InventoryService } from '../inventory/service';
import { refundedOrdersOf } from '../orders/repo';
import type { OrderService } from '../orders/service';
import { refundedUnitsOfLiveOrders } from '../refunds/items-repo';

export interface RefundedSeatsDeps {
  db: Db;
  inventory: InventoryService;
  orders: OrderService;
  log: Logger;
}

/**
 * Sold seats of refunded orders go back on sale. A refund's Redis release runs from the outbox
 * (inventory.release); if Redis failed every retry, the seats stay sold in Redis while MySQL has
 * freed them. The orphan sweep only sees holds, so this finds them: every refunded order of a
 * selling session whose Redis record still holds or sells units is released again (idempotent).
 */
export async function sweepRefundedSeats(d: RefundedSeatsDeps, sessionIds: string[]): Promise<number> {
  let freed = 0;
  const bySession = new Map<string, string[]>();
  for (const o of await refundedOrdersOf(d.db, sessionIds))
    bySession.set(o.session_id, [...(bySession.get(o.session_id) ?? []), o.id]);
  for (const [sessionId, ids] of bySession) {
    const states = await d.inventory.recordStates(sessionId, ids);
    for (const id of ids) {
      const state = states.get(id);
      if (state !== 'H' && state !== 'S') continue;
      if ((await d.orders.giveBack(sessionId, id)) === 'released') {
        freed++;
        d.log.warn(
          { sessionId, orderId: id },
          'seats of a refunded order were still taken in Redis: released',
        );
      }
    }
  }
  return freed + (await sweepRefundedUnits(d, sessionIds));
}

/**
 * The same for per-ticket refunds: the refunded seats of an order still ticketed go back on sale
 * if its Redis record still holds them (the order's other units stay sold). Idempotent.
 */
async function sweepRefundedUnits(d: RefundedSeatsDeps, sessionIds: string[]): Promise<number> {
  let freed = 0;
  for (const o of await refundedUnitsOfLiveOrders(d.db, sessionIds)) {
    const held = await d.inventory.heldUnits(o.sessionId, o.orderId);
    if (!held || held.state === 'R' || !o.units.some((u) => held.units.includes(u))) continue;
    if ((await d.orders.giveBack(o.sessionId, o.orderId, undefined, o.units)) === 'released') {
      freed++;
      d.log.warn(
        { sessionId: o.sessionId, orderId: o.orderId, units: o.units },
        'seats of a per-ticket refund were still taken in Redis: released',
      );
    }
  }
  return freed;
}
