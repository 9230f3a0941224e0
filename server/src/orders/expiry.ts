import type { Logger } from 'pino';
import { sqlErrno, type Db } from '../db/pool';
import { eachLimited } from '../each-limited';
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
/**
 * WeChat calls in flight at once: the due orders whose payment started are settled (their trade
 * closed) side by side, each call ~100 ms on the public network. A pool, not lock-step groups:
 * one slow call holds up its own lane only. Groups of 8, each order through the whole cancel
 * workflow, expired 63-65 orders a second at 100 ms a call (bench/expiry --paying), fewer than an
 * on-sale's abandoned payment sheets fall due.
 */
const SETTLE_PARALLEL = 32;
/** Orders expired side by side when a batch failed and they go one by one through the workflow. */
const ALONE_PARALLEL = 8;
/** One run stops after this long; the next run goes on (thousands can fall due together). */
const RUN_BUDGET_MS = 10_000;

/**
 * Cancels unpaid orders after their hold time and gives back exactly what each held, once, a
 * batch of due orders at a time: those whose payment never started together (orders/
 * expire-batch.ts); then those whose payment started are settled at WeChat side by side (the
 * cancel guard: closed, or honoured if WeChat says it was paid), and the closed ones are
 * cancelled together too. Safe with several instances running it at once: every decision is
 * taken again under the orders' locks.
 */
export async function expireDueOrders(d: ExpiryDeps, now: Date): Promise<number> {
  let cancelled = 0;
  const started = performance.now();
  for (;;) {
    const due = await dueForExpiry(d.db, now, BATCH);
    const plain = await expireBatch(
      d,
      due.map((o) => o.id),
      now,
    );
    const batchCancelled = plain.cancelled + (await expireStarted(d, plain, now));
    cancelled += batchCancelled;
    // A full batch may leave more behind; stop when a batch made no progress (e.g. WeChat is
    // down and payments cannot be closed) so the next run retries instead of spinning here.
    const more = due.length === BATCH && batchCancelled > 0;
    if (!more || performance.now() - started > RUN_BUDGET_MS) return cancelled;
  }
}

interface BatchResult {
  cancelled: number;
  /** Orders the batch left: their payment started and is still open, or the batch failed. */
  alone: string[];
  failed: boolean;
}

/**
 * The orders a batch left because their payment started: settled at WeChat side by side, then
 * the closed ones expired together. Those WeChat says were paid are honoured by the guard; those
 * it cannot answer for are asked again on the next run. A failed batch's orders go one by one.
 */
async function expireStarted(d: ExpiryDeps, left: BatchResult, now: Date): Promise<number> {
  if (left.failed) return expireEach(d, left.alone, now);
  const closed = new Set<string>();
  await eachLimited(left.alone, SETTLE_PARALLEL, async (id) => {
    const settled = await d.orders.settleBeforeExpiry(id, now).catch((err: unknown) => {
      d.log.warn({ err, orderId: id }, 'settling an expiring payment failed; next run retries');
      return 'retry' as const;
    });
    if (settled === 'cancel') closed.add(id);
  });
  const r = await expireBatch(d, [...closed], now, closed);
  return r.cancelled + (r.failed ? await expireEach(d, r.alone, now) : 0);
}

/**
 * The batch's plain orders (and the `settled` ones) expired together; the rest left. A batch
 * that fails (a deadlock with a concurrent writer of the same rows: it was rolled back) leaves
 * every order to go alone, as before batches.
 */
async function expireBatch(
  d: ExpiryDeps,
  ids: string[],
  now: Date,
  settled?: ReadonlySet<string>,
): Promise<BatchResult> {
  if (ids.length === 0) return { cancelled: 0, alone: [], failed: false };
  try {
    const r = await d.orders.expirePlain(ids, now, settled);
    return { cancelled: r.cancelled, alone: r.paymentStarted, failed: false };
  } catch (err) {
    d.log.warn({ err, size: ids.length }, 'expiry batch failed; expiring its orders one by one');
    return { cancelled: 0, alone: ids, failed: true };
  }
}

/** InnoDB's deadlock and lock-wait timeout: the transaction was rolled back, so it may run again. */
const RETRYABLE = new Set([1213, 1205]);

/**
 * Expires orders one by one through the cancel workflow, side by side. Orders of one session
 * expire into the same rows (claims, quota, the waiting list's offers), so two of them can meet
 * in an InnoDB deadlock; InnoDB then rolls one back, and that one runs once more in its lane. A
 * second failure, or any other, is logged and left to the next run: one order must not stop the
 * others.
 */
async function expireEach(d: ExpiryDeps, ids: string[], now: Date): Promise<number> {
  let done = 0;
  await eachLimited(ids, ALONE_PARALLEL, async (id) => {
    let r = await d.orders.expire(id, now).catch((err: unknown) => err);
    if (r instanceof Error && RETRYABLE.has(sqlErrno(r) ?? 0))
      r = await d.orders.expire(id, now).catch((err: unknown) => err);
    if (r === true) done++;
    else if (r !== false) d.log.error({ err: r, orderId: id }, 'order expiry failed');
  });
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
