import type { Logger } from 'pino';
import { sqlErrno, type Db } from '../db/pool';
import type { InventoryService } from '../inventory/service';
import { dueForExpiry, statusesOf } from './repo';
import type { OrderService } from './service';
import { ORDER_STATUS } from './types';

export interface ExpiryDeps {
  db: Db;
  orders: OrderService;
  inventory: InventoryService;
  log: Logger;
  orphanGraceMs: number;
}

const BATCH = 200;
/** Orders expired side by side (each may wait on WeChat to close its payment). */
const PARALLEL = 8;
/** One run stops after this long; the next run goes on (thousands can fall due together). */
const RUN_BUDGET_MS = 10_000;

/**
 * Cancels unpaid orders after their hold time and gives back exactly what each held, once: a
 * batch at a time (orders/expire-batch.ts), and the orders whose payment started one by one
 * through the cancel workflow, with a conditional update. Safe with several instances running it
 * at once.
 */
export async function expireDueOrders(d: ExpiryDeps, now: Date): Promise<number> {
  let cancelled = 0;
  const started = performance.now();
  for (;;) {
    const due = await dueForExpiry(d.db, now, BATCH);
    const { cancelled: plain, alone } = await expireBatch(d, due, now);
    let batchCancelled = plain;
    for (let i = 0; i < alone.length; i += PARALLEL) {
      batchCancelled += await expireGroup(d, alone.slice(i, i + PARALLEL), now);
    }
    cancelled += batchCancelled;
    // A full batch may leave more behind; stop when a batch made no progress (e.g. WeChat is
    // down and payments cannot be closed) so the next run retries instead of spinning here.
    const more = due.length === BATCH && batchCancelled > 0;
    if (!more || performance.now() - started > RUN_BUDGET_MS) return cancelled;
  }
}

/**
 * The batch's plain orders expired together; the rest to go alone. A batch that fails (a
 * deadlock with a concurrent writer of the same rows: it was rolled back) leaves every order
 * to go alone, as before batches.
 */
async function expireBatch(
  d: ExpiryDeps,
  due: { id: string }[],
  now: Date,
): Promise<{ cancelled: number; alone: string[] }> {
  const ids = due.map((o) => o.id);
  if (ids.length === 0) return { cancelled: 0, alone: [] };
  try {
    const r = await d.orders.expirePlain(ids, now);
    return { cancelled: r.cancelled, alone: r.paymentStarted };
  } catch (err) {
    d.log.warn({ err, size: ids.length }, 'expiry batch failed; expiring its orders one by one');
    return { cancelled: 0, alone: ids };
  }
}

/** InnoDB's deadlock and lock-wait timeout: the transaction was rolled back, so it may run again. */
const RETRYABLE = new Set([1213, 1205]);

/**
 * Expires a group side by side. Orders of one session expire into the same rows (claims, quota,
 * the waiting list's offers), so two of them can meet in an InnoDB deadlock; InnoDB then rolls
 * one back, and that one runs again alone. Any other failure is logged and left to the next run:
 * one order must not stop the others (before, one deadlock failed the whole run).
 */
async function expireGroup(d: ExpiryDeps, ids: string[], now: Date): Promise<number> {
  const results = await Promise.allSettled(ids.map((id) => d.orders.expire(id, now)));
  let done = 0;
  for (const [i, r] of results.entries()) {
    if (r.status === 'fulfilled') {
      done += r.value ? 1 : 0;
      continue;
    }
    const again = RETRYABLE.has(sqlErrno(r.reason) ?? 0)
      ? await d.orders.expire(ids[i]!, now).catch((err: unknown) => err)
      : r.reason;
    if (again === true) done++;
    else if (again !== false) d.log.error({ err: again, orderId: ids[i] }, 'order expiry failed');
  }
  return done;
}

/**
 * Frees Redis holds that have no live MySQL order behind them: a server died between its
 * Redis hold and its MySQL write, or released the MySQL side while Redis was unreachable.
 */
export async function sweepOrphanHolds(d: ExpiryDeps, sessionIds: string[], now: Date): Promise<number> {
  let freed = 0;
  const started = performance.now();
  for (const sessionId of sessionIds) {
    // An instance killed mid-sale can leave more than a batch: go on while a full batch freed
    // something (a batch of holds MySQL still owns frees nothing: the next run looks again).
    for (;;) {
      const stale = await d.inventory.staleHolds(sessionId, now.getTime() - d.orphanGraceMs, BATCH);
      const batchFreed = await sweepBatch(d, sessionId, stale);
      freed += batchFreed;
      if (stale.length < BATCH || batchFreed === 0 || performance.now() - started > RUN_BUDGET_MS) break;
    }
  }
  return freed;
}

/** Releases the holds among `stale` whose order MySQL does not hold as pending, paid or ticketed. */
async function sweepBatch(d: ExpiryDeps, sessionId: string, stale: string[]): Promise<number> {
  if (stale.length === 0) return 0;
  let freed = 0;
  const status = await statusesOf(d.db, stale);
  for (const orderId of stale) {
    const s = status.get(orderId);
    if (s === ORDER_STATUS.PENDING || s === ORDER_STATUS.PAID || s === ORDER_STATUS.TICKETED) continue;
    // Never written: forget its idempotency key too, so the buyer's retry can start afresh.
    const r = await d.inventory.release(sessionId, orderId, s === undefined);
    if (r.kind === 'released') {
      freed++;
      d.log.warn({ sessionId, orderId, mysqlStatus: s ?? 'missing' }, 'orphan hold released');
    }
  }
  return freed;
}
