import { GroupCommit, type Pending } from '../db/group-commit';
import { inTransaction, type Conn } from '../db/pool';
import { exchangeOrdersAmong } from '../exchanges/repo';
import { lockOrders, ordersByIds } from '../orders/repo';
import { ORDER_STATUS, type OrderRecord } from '../orders/types';
import {
  afterIssue,
  issueInTx,
  issueLocked,
  paidAndConfirmed,
  type IssueOutcome,
  type TicketDeps,
} from './service';

/** One paid order waiting for its batch; `outcome` is set once the batch (or its retry) committed. */
export interface Issue {
  orderId: string;
  now: Date;
  outcome: IssueOutcome;
  /** The order as the batch read it, when it was PAID (and its holds confirmed sold). */
  order?: OrderRecord;
}

export interface TicketIssuerOptions {
  /** Orders per transaction at most (the consumer's prefetch bounds how many wait at once). */
  batchOrdersMax: number;
  /** Batch transactions in flight at once at most. */
  batchInflightMax: number;
}

/**
 * Issues the tickets of paid orders as the tickets consumer receives them, in group commits:
 * orders that arrive together share one transaction, whose statements (the orders locked, the
 * exchange orders among them found, their refunds and items read, every ticket inserted, every
 * order moved, every notice enqueued) are as many for twenty orders as for one. Alone, an order
 * took ten round trips to MySQL; on the pay path, statements, not disk, bound how many payments
 * become tickets per second (bench/pay). Before it, the batch's orders are read in one query and
 * the paid ones' holds confirmed sold in Redis (confirmBatch below), as issueTickets does
 * for one.
 *
 * Invariants as issueTickets: the orders are locked (in id order) and re-read before anything is
 * decided, only PAID ones are issued, a refund open or done on an item makes its ticket REFUNDING,
 * and the unique key per order item makes a replay a no-op. An exchange order is left to
 * issueInTx, alone in its own transaction (it locks its original order too). A batch that fails
 * (a deadlock, a key that refused one order's tickets) is retried one order per transaction, so
 * one order's failure is its own.
 */
export class TicketIssuer extends GroupCommit<Issue> {
  constructor(
    private readonly d: TicketDeps,
    o: TicketIssuerOptions,
  ) {
    super({ batchMax: o.batchOrdersMax, inflightMax: o.batchInflightMax });
  }

  /** issueTickets, in a batch: resolves once this order's outcome is committed. */
  async issue(orderId: string, now: Date): Promise<'issued' | 'skipped'> {
    const item: Issue = { orderId, now, outcome: 'skipped' };
    await this.submit(item);
    if (item.order) afterIssue(this.d, item.order, item.outcome, now);
    return item.outcome === 'issued' ? 'issued' : 'skipped';
  }

  protected async flush(all: Pending<Issue>[]): Promise<void> {
    const batch = await this.confirmBatch(all);
    if (batch.length === 0) return;
    const items = batch.map((p) => p.item);
    // Per item: its outcome, or undefined for an order left to issueInTx alone.
    let outcomes: (IssueOutcome | undefined)[];
    try {
      outcomes = await inTransaction(this.d.db, (conn) => this.issueBatch(conn, items));
    } catch (err) {
      this.d.log.warn({ err, orders: items.length }, 'ticket batch failed; issuing its orders one by one');
      outcomes = items.map(() => undefined);
    }
    await Promise.all(
      batch.map(async (p, i) => {
        try {
          p.item.outcome =
            outcomes[i] ??
            (await inTransaction(this.d.db, (conn) => issueInTx(conn, p.item.orderId, p.item.now)));
          p.resolve();
        } catch (err) {
          p.reject(err as Error);
        }
      }),
    );
  }

  /**
   * paidAndConfirmed (tickets/service.ts) for the batch: its orders read in one query (each had a
   * read of its own), then each PAID one's holds confirmed sold in Redis. An order not PAID is settled 'skipped'
   * here (nothing to issue: a redelivery of an issued order, say); one whose confirmation failed
   * is rejected alone, and the consumer retries it. The rest go on to the transaction, which
   * locks and reads them again before deciding.
   */
  private async confirmBatch(batch: Pending<Issue>[]): Promise<Pending<Issue>[]> {
    const read = await ordersByIds(this.d.db, [...new Set(batch.map((p) => p.item.orderId))]);
    const byId = new Map(read.map((o) => [o.id, o]));
    const confirmed = await Promise.all(
      batch.map(async (p) => {
        let order: OrderRecord | undefined;
        try {
          order = await paidAndConfirmed(this.d, byId.get(p.item.orderId), p.item.now);
        } catch (err) {
          return void p.reject(err as Error);
        }
        if (!order) return void p.resolve();
        p.item.order = order;
        return p;
      }),
    );
    return confirmed.filter((p): p is Pending<Issue> => p !== undefined);
  }

  /**
   * The batch's transaction: per item, the outcome it decided, or undefined for an exchange order
   * (left to issueInTx). An order delivered twice into one batch is issued once; its other
   * delivery is 'skipped', as it would be after the first one's commit.
   */
  private async issueBatch(conn: Conn, items: Issue[]): Promise<(IssueOutcome | undefined)[]> {
    const locked = await lockOrders(
      conn,
      items.map((i) => i.orderId),
    );
    const paid = locked.filter((o) => o.status === ORDER_STATUS.PAID);
    const exchanges = await exchangeOrdersAmong(
      conn,
      paid.map((o) => o.id),
    );
    const plain = paid.filter((o) => !exchanges.has(o.id));
    const nowOf = new Map(items.map((i) => [i.orderId, i.now]));
    await issueLocked(conn, plain, (o) => nowOf.get(o.id)!);
    const issued = new Set(plain.map((o) => o.id));
    const seen = new Set<string>();
    return items.map((i) => {
      if (exchanges.has(i.orderId)) return undefined;
      const first = !seen.has(i.orderId);
      seen.add(i.orderId);
      return first && issued.has(i.orderId) ? 'issued' : 'skipped';
    });
  }
}
