import type { Logger } from 'pino';
import { GroupCommit, type Pending } from '../db/group-commit';
import { ER_CHECK_FAILED, ER_DUP_ENTRY, sqlErrno, type Conn, type Db } from '../db/pool';
import {
  insertInOneRoundTrip,
  insertStatements,
  runStatement,
  storedOrderIdentity,
  type InsertStep,
} from './insert-repo';
import type { NewOrder } from './types';

export type WriteFailure =
  | 'seat_taken'
  | 'unit_taken'
  | 'id_taken'
  | 'limit'
  | 'show_limit'
  | 'idempotency_duplicate'
  | 'order_id_collision'
  | 'admission_used'
  | 'error';

export class WriteError extends Error {
  constructor(
    readonly reason: WriteFailure,
    override readonly cause?: unknown,
  ) {
    super(`order write failed: ${reason}`);
  }
}

export interface WriterOptions {
  batchOrdersMax: number;
  batchInflightMax: number;
}

/**
 * Writes new orders to MySQL in group commits. Orders that arrive while earlier batches are in
 * flight wait together and go out as one transaction in one round trip (multi-row INSERTs and
 * COMMIT in a single multi-statement query); every caller still waits for its own durable
 * commit. Per-statement overhead, not disk, limits MySQL here, so batching is what scales.
 * If a batch fails (a unique key or the quota CHECK refused a row), its orders are retried one
 * by one so only the offending order fails, with a precise reason.
 */
export class OrderWriter extends GroupCommit<NewOrder> {
  constructor(
    private readonly pool: Db,
    opts: WriterOptions,
    private readonly log: Logger,
  ) {
    super({ batchMax: opts.batchOrdersMax, inflightMax: opts.batchInflightMax });
  }

  /** Resolves once this order is committed (or rejects with why it was not). */
  write(order: NewOrder): Promise<void> {
    return this.submit(order);
  }

  protected async flush(batch: Pending<NewOrder>[]): Promise<void> {
    try {
      await this.writeBatch(batch.map((w) => w.item));
      for (const w of batch) w.resolve();
      return;
    } catch (err) {
      // Also retries a lone order: a deadlock or lost connection deserves a second attempt.
      this.log.debug({ err, size: batch.length }, 'batch refused; writing its orders one by one');
    }
    await Promise.all(
      batch.map((w) =>
        this.writeOne(w.item).then(
          () => w.resolve(),
          (e: WriteError) => w.reject(e),
        ),
      ),
    );
  }

  private async writeBatch(orders: NewOrder[]): Promise<void> {
    await insertInOneRoundTrip(this.pool, orders);
  }

  /** The slow path: statement by statement, so the failing step names the reason. */
  private async writeOne(order: NewOrder): Promise<void> {
    let conn: Conn;
    try {
      conn = await this.pool.getConnection();
    } catch (err) {
      throw new WriteError('error', err); // MySQL out of reach: the order's holds go back
    }
    let step: InsertStep | undefined;
    try {
      await conn.beginTransaction();
      for (const s of insertStatements([order])) {
        step = s.step;
        await runStatement(conn, s);
      }
      await conn.commit();
    } catch (err) {
      await conn.rollback().catch(() => undefined);
      if (step === 'orders' && sqlErrno(err) === ER_DUP_ENTRY && /PRIMARY/.test(String(err))) {
        // Its id is taken: written already if the batch it came from committed and only the
        // answer was lost, but only if the stored row is this very order. Anything else is
        // another order with the same id, and answering "written" would confirm an order that
        // is not in MySQL.
        if (await storedIsThisOrder(conn, order)) return;
        this.log.error({ orderId: order.id }, 'order id already used by another order');
        throw new WriteError('order_id_collision', err);
      }
      throw classifyWrite(err, step);
    } finally {
      conn.release();
    }
  }
}

/** Whether the orders row with this order's id was written from this very order. */
async function storedIsThisOrder(conn: Conn, o: NewOrder): Promise<boolean> {
  const r = await storedOrderIdentity(conn, o.id);
  return (
    !!r &&
    r.orderNo === o.orderNo &&
    r.userId === o.userId &&
    r.sessionId === o.sessionId &&
    r.amountFen === o.amountFen &&
    r.quantity === o.quantity &&
    r.idempotencyKey === o.idempotencyKey &&
    r.requestHash === o.requestHash &&
    r.createdAt.getTime() === o.createdAt.getTime()
  );
}

/** Why an order's INSERT was refused (also the exchange orders' path, exchanges/service.ts). */
export function classifyWrite(err: unknown, step: InsertStep | undefined): WriteError {
  const errno = sqlErrno(err);
  const message = err instanceof Error ? err.message : '';
  if (errno === ER_DUP_ENTRY) {
    if (message.includes('uk_order_idempotency')) return new WriteError('idempotency_duplicate', err);
    if (step === 'seat_claims') return new WriteError('seat_taken', err);
    if (step === 'zone_claims') return new WriteError('unit_taken', err);
    if (step === 'attendee_claims') return new WriteError('id_taken', err);
    if (step === 'admission') return new WriteError('admission_used', err);
  }
  if (errno !== undefined && ER_CHECK_FAILED.includes(errno))
    return new WriteError(step === 'show_quota' ? 'show_limit' : 'limit', err);
  return new WriteError('error', err);
}
