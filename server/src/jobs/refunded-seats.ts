import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import type { InventoryService } from '../inventory/service';
import { refundedOrdersOf } from '../orders/repo';
import type { OrderService } from '../orders/service';

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
  return freed;
}
