import type { Logger } from 'pino';
import type { CatalogService } from '../catalog/service';
import { ER_CHECK_FAILED, ER_DUP_ENTRY, inTransaction, sqlErrno, type Db } from '../db/pool';
import type { InventoryService } from '../inventory/service';
import { attendeeIdHashes, orders, itemsOf, renumberItemSlots, type ItemRecord } from '../orders/repo';
import { claimStatements, runStatement } from '../orders/insert-repo';
import { ORDER_STATUS, type OrderRecord } from '../orders/types';
import { move, ORDER_LIFECYCLE } from '../lifecycle/transitions';
import { enqueue } from '../outbox/repo';
import type { OutboxRelay } from '../outbox/relay';
import type { RefundService } from '../refunds/service';
import { payments, setOutcome } from './repo';
import { workflow } from '../lifecycle/workflow';

export interface LateDeps {
  db: Db;
  inventory: InventoryService;
  catalog: CatalogService;
  refunds: RefundService;
  relay: OutboxRelay;
  log: Logger;
}

class Refused extends Error {}

interface LateCtx {
  d: LateDeps;
  order: OrderRecord;
  items: ItemRecord[];
  idHashes: string[];
  paymentId: string;
  now: Date;
}

/**
 * Honouring a late payment: take the units again in Redis (compensation: give them back), then
 * claim them in MySQL and mark the order paid (one transaction: nothing to undo). Refused by
 * Redis or MySQL, the taken units are given back and the caller refunds instead.
 */
const HONOUR = workflow<LateCtx>(
  'late payment: honour',
  [
    {
      name: 'retake units in Redis',
      run: (c) => retake(c.d, c.order, c.items, c.idHashes, c.now),
      compensate: async (c) => void (await c.d.inventory.release(c.order.sessionId, c.order.id, false)),
    },
    {
      name: 'claim units in MySQL, order paid, tickets asked',
      run: (c) => reclaim(c.d, c.order, c.items, c.idHashes, c.paymentId, c.now),
    },
  ],
  (err) => err instanceof Refused,
);

/**
 * A payment arrived for an order we had already cancelled. If its seats (or as many zone units)
 * are still free, take them again, Redis first and MySQL's claims as the backstop, and issue
 * tickets; otherwise refund the whole payment and tell the buyer. Money is never kept without
 * a ticket. Idempotent: the payment's outcome changes from 'late' exactly once.
 */
export async function handleLatePayment(
  d: LateDeps,
  orderId: string,
  paymentId: string,
  now: Date,
): Promise<'honoured' | 'refunded' | 'done'> {
  const order = await orders.byId(d.db, orderId);
  const payment = await payments.byId(d.db, paymentId);
  if (!order || payment?.outcome !== 'late') return 'done';
  // An order's items and attendees do not change once written (reclaim renumbers zone units).
  const items = await itemsOf(d.db, [order.id]);
  const idHashes = await attendeeIdHashes(d.db, order.id);
  try {
    await HONOUR.run({ d, order, items, idHashes, paymentId, now });
    d.relay.nudge();
    return 'honoured';
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    // Compensated (units given back): the fallback is the refund of the whole payment.
    const refunded = await inTransaction(d.db, async (conn) => {
      const p = await payments.byId(conn, paymentId, { lock: true });
      if (p?.outcome !== 'late') return false;
      await setOutcome(conn, paymentId, 'late_refund');
      await d.refunds.refundPaymentInTx(conn, order, p, 'late', now);
      return true;
    });
    d.relay.nudge();
    d.log.info({ orderId, reason: err.message }, 'late payment refunded: its units are gone');
    return refunded ? 'refunded' : 'done';
  }
}

async function retake(
  d: LateDeps,
  order: OrderRecord,
  items: ItemRecord[],
  idHashes: string[],
  now: Date,
): Promise<void> {
  const units = items[0]?.seatId
    ? { seatIds: items.map((i) => i.seatId!) }
    : { zoneId: items[0]!.zoneId!, quantity: items.length };
  const r = await d.inventory.retake(order.sessionId, order.id, order.userId, units, idHashes, now.getTime());
  if (r.kind === 'refused') throw new Refused(r.code);
}

async function reclaim(
  d: LateDeps,
  order: OrderRecord,
  items: ItemRecord[],
  idHashes: string[],
  paymentId: string,
  now: Date,
): Promise<void> {
  const cat = await d.catalog.requireSession(order.sessionId);
  const held = await d.inventory.heldUnits(order.sessionId, order.id);
  try {
    await inTransaction(d.db, async (conn) => {
      const o = await orders.byId(conn, order.id, { lock: true });
      const p = await payments.byId(conn, paymentId, { lock: true });
      if (o?.status !== ORDER_STATUS.CANCELLED || p?.outcome !== 'late') return;
      if (items[0]?.zoneId) {
        // A zone order may have got other unit numbers this time.
        await renumberItemSlots(conn, order.id, held!.units);
      }
      const claimItems = items.map((i, n) =>
        i.seatId
          ? { seatId: i.seatId, tierId: i.tierId, priceFen: i.priceFen }
          : { zoneId: i.zoneId!, slotNo: Number(held!.units[n]), tierId: i.tierId, priceFen: i.priceFen },
      );
      const attendees = idHashes.map((idHash) => ({ idHash }));
      const claim = {
        id: o.id,
        sessionId: o.sessionId,
        userId: o.userId,
        quantity: o.quantity,
        purchaseLimit: cat.purchaseLimit,
        items: claimItems,
        showId: cat.showId,
        showLimit: cat.showPurchaseLimit,
        attendees,
      };
      for (const s of claimStatements([claim])) {
        await runStatement(conn, s);
      }
      await move(conn, 'orders', o.id, ORDER_LIFECYCLE.latePay, {
        paid_at: now,
        cancelled_at: null,
        cancel_reason: null,
      });
      await setOutcome(conn, paymentId, 'late_applied');
      await enqueue(conn, 'order.paid', o.id, { orderId: o.id });
      await enqueue(conn, 'notice.send', o.id, { userId: o.userId, template: 'paid', orderId: o.id });
    });
  } catch (err) {
    const errno = sqlErrno(err);
    if (errno === ER_DUP_ENTRY || (errno !== undefined && ER_CHECK_FAILED.includes(errno)))
      throw new Refused('mysql refused the claims');
    throw err;
  }
}
