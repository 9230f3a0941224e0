import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { inTransaction, type Conn, type Db } from '../db/pool';
import type { InventoryService } from '../inventory/service';
import { orders } from '../orders/repo';
import { ORDER_STATUS, type OrderRecord } from '../orders/types';
import { enqueueAll, type OutboxEntry } from '../outbox/repo';
import type { OutboxRelay } from '../outbox/relay';
import type { Metrics } from '../http/metrics';
import { blockedItemsOfOrders } from '../refunds/items-repo';
import { insertTickets, itemsToIssueOf, type IssuableItem, type NewTicket } from './repo';
import { TICKET_STATUS } from './status';
import { moveMany, ORDER_LIFECYCLE } from '../lifecycle/transitions';
import { settleExchangeInTx } from '../exchanges/complete';

export interface TicketDeps {
  db: Db;
  inventory: InventoryService;
  relay: OutboxRelay;
  log: Logger;
  /** Issued orders and the payment → tickets lag (absent in callers that do not measure). */
  metrics?: Pick<Metrics, 'ticketsIssued' | 'ticketLag'>;
}

const TICKET_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** 20 characters, no look-alikes (0/O, 1/I): read aloud at a gate if a scan fails. */
export function newTicketNo(): string {
  const bytes = randomBytes(19);
  return 'T' + Array.from(bytes, (b) => TICKET_ALPHABET[b % 32]).join('');
}

/** What one order's issue came to: tickets issued, nothing to do, or an exchange that could not go ahead. */
export type IssueOutcome = 'issued' | 'skipped' | 'failed';

/**
 * The holds of a paid order become sold in Redis before its tickets are written (MySQL says the
 * seats are this order's, so 'record' mode); a Redis that does not know the sale is rebuilt.
 */
async function confirmSold(d: TicketDeps, order: OrderRecord, now: Date): Promise<void> {
  const confirmed = await d.inventory.confirm(order.sessionId, order.id, 'record');
  if (confirmed.kind !== 'confirmed' && confirmed.kind !== 'already') {
    // Redis does not know this sale (it lost data, or disagrees): rebuild it from MySQL.
    d.log.warn(
      { orderId: order.id, redis: confirmed },
      'Redis disagrees with a paid order; rebuilding the session',
    );
    await d.inventory.rebuild(order.sessionId, now.getTime());
  }
}

/** One ticket per order item; none admissible while a refund of its item is open or done. */
export function ticketsFor(
  o: OrderRecord,
  items: IssuableItem[],
  blocked: Set<string>,
  now: Date,
): NewTicket[] {
  return items.map((i) => ({
    ticketNo: newTicketNo(),
    orderId: o.id,
    orderItemId: i.id,
    userId: o.userId,
    sessionId: o.sessionId,
    seatId: i.seatId,
    zoneId: i.zoneId,
    slotNo: i.slotNo,
    secret: randomBytes(32).toString('base64url'),
    status: blocked.has(String(i.id)) ? TICKET_STATUS.REFUNDING : TICKET_STATUS.VALID,
    createdAt: now,
  }));
}

/** The fan's notice that the tickets are in the wallet. */
export const ticketedNotice = (o: OrderRecord): OutboxEntry => ({
  topic: 'notice.send',
  aggregateId: o.id,
  payload: { userId: o.userId, template: 'ticketed', orderId: o.id },
});

/**
 * Tickets for orders the caller locked and found PAID, none an exchange order still to settle:
 * five statements whatever their number (issueInTx: one order; TicketIssuer: a batch).
 */
export async function issueLocked(
  conn: Conn,
  paid: OrderRecord[],
  nowOf: (o: OrderRecord) => Date,
): Promise<void> {
  if (paid.length === 0) return;
  const ids = paid.map((o) => o.id);
  // No ticket is admissible while a refund of its item is open or done. The refund request
  // takes the order lock too, so it is either visible here or comes after and moves these.
  const blocked = await blockedItemsOfOrders(conn, ids, true);
  const items = await itemsToIssueOf(conn, ids);
  const tickets = paid.flatMap((o) =>
    ticketsFor(
      o,
      items.filter((i) => i.orderId === o.id),
      blocked,
      nowOf(o),
    ),
  );
  await insertTickets(conn, tickets);
  await moveMany(conn, 'orders', ids, ORDER_LIFECYCLE.issue);
  await enqueueAll(conn, paid.map(ticketedNotice));
}

/** One order's issue inside the caller's transaction: the order locked, then decided. */
export async function issueInTx(conn: Conn, orderId: string, now: Date): Promise<IssueOutcome> {
  const o = await orders.byId(conn, orderId, { lock: true });
  if (o?.status !== ORDER_STATUS.PAID) return 'skipped';
  // An exchange order (改签): its old tickets are given up in this very transaction, or, when
  // one of them can no longer be, nothing is issued and the exchange order is refunded.
  if ((await settleExchangeInTx(conn, o, now)) === 'failed') return 'failed';
  await issueLocked(conn, [o], () => now);
  return 'issued';
}

/**
 * Before an issue's transaction: the order as read (a plain read; the transaction locks and reads
 * it again), its holds confirmed sold in Redis when it is PAID; undefined when it is not PAID
 * or not found (nothing to issue). issueTickets reads one order, the consumer's batch many.
 */
export async function paidAndConfirmed(
  d: TicketDeps,
  order: OrderRecord | undefined,
  now: Date,
): Promise<OrderRecord | undefined> {
  if (order?.status !== ORDER_STATUS.PAID) return undefined;
  await confirmSold(d, order, now);
  return order;
}

/** After the commit: the outbox sent at once (the notice; a failed exchange's refund and release), the metrics. */
export function afterIssue(d: TicketDeps, order: OrderRecord, outcome: IssueOutcome, now: Date): void {
  if (outcome === 'skipped') return;
  d.relay.nudge();
  if (outcome !== 'issued') return;
  d.metrics?.ticketsIssued.inc();
  if (order.paidAt) d.metrics?.ticketLag.observe(Math.max(0, now.getTime() - order.paidAt.getTime()) / 1000);
}

/**
 * Issues the tickets of one paid order (the recovery jobs, the ops page, exchanges; the tickets
 * consumer does the same for the orders delivered together, in TicketIssuer's batches): the holds
 * become sold in Redis, then one transaction creates one ticket per seat or unit and moves the
 * order to ticketed. A crash anywhere replays the message; the paid status check under the order
 * lock and the unique key per order item make the second run a no-op, so there is exactly one
 * set of tickets.
 */
export async function issueTickets(d: TicketDeps, orderId: string, now: Date): Promise<'issued' | 'skipped'> {
  const order = await paidAndConfirmed(d, await orders.byId(d.db, orderId), now);
  if (!order) return 'skipped';
  const outcome = await inTransaction(d.db, (conn) => issueInTx(conn, orderId, now));
  afterIssue(d, order, outcome, now);
  return outcome === 'issued' ? 'issued' : 'skipped';
}
