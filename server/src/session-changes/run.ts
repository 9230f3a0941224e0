import { inTransaction } from '../db/pool';
import { AppError } from '../errors';
import { enqueue } from '../outbox/repo';
import { exchangedInFull, refundCancelledExchange } from '../exchanges/cancel-refund';
import { returnFees } from './fees';
import * as repo from './repo';
import type { SessionChangeDeps } from './deps';

/** Orders told per pass (each its own small transaction). */
const REACH_BATCH = 500;
/** Pending orders of a cancelled session cancelled per pass (each closes its WeChat order). */
const PENDING_BATCH = 100;

/**
 * The resumable run of session changes, from the job every second (server.ts). Everything it
 * does is a step recorded in MySQL and safe to repeat: a crash or restart picks up where it
 * stopped, and no order is refunded twice (one session_change_orders row per order; the refund
 * itself is the refunds service's, one per order and payment, stable out_refund_no).
 * `budget` is the refunds this pass may ask for (SESSION_CANCEL_REFUNDS_PER_S x the period).
 */
export async function runSessionChanges(
  d: SessionChangeDeps,
  now: Date,
  budget = d.refundsPerS,
): Promise<number> {
  let asked = 0;
  for (const change of await repo.changesToRun(d.db)) {
    if (change.kind === 'cancel') asked += await runCancel(d, change, now, Math.max(0, budget - asked));
    else await reach(d, change, repo.CHANGE_ORDER.NOTIFIED);
    await settle(d, change, now);
  }
  return asked;
}

async function runCancel(
  d: SessionChangeDeps,
  c: repo.ChangeRow,
  now: Date,
  budget: number,
): Promise<number> {
  // Again on every pass: the request's own close may have been lost to a crash right after commit.
  await d.inventory.setOpen(c.session_id, false);
  // Tickets issued since (orders paid while the cancellation ran) are held too.
  await repo.holdSessionTickets(d.db, c.session_id);
  for (const id of await repo.pendingOrderIds(d.db, c.session_id, PENDING_BATCH)) {
    // 'paid': WeChat took the money after all; the order is reached and refunded below.
    await d
      .cancelPending(id, now)
      .catch((err: unknown) => d.log.warn({ err, orderId: id }, 'cancel pending'));
  }
  await reach(d, c, repo.CHANGE_ORDER.TODO);
  const asked = await refundSome(d, c, now, budget);
  // A cancellation refunds in full: fees kept by buyers' refunds in flight come back too.
  if (await returnFees(d.db, c, now, d.log)) d.relay.nudge();
  return asked;
}

/** Rows (and the fan's notice, in the same transaction) for the orders not reached yet. */
async function reach(d: SessionChangeDeps, c: repo.ChangeRow, state: string): Promise<void> {
  const orders = await repo.unreachedOrders(d.db, c, REACH_BATCH);
  for (const o of orders) {
    await inTransaction(d.db, async (conn) => {
      if (!(await repo.addChangeOrder(conn, c.id, o, state))) return;
      await enqueue(conn, 'notice.send', `sc${c.id}-${o.id}`, {
        userId: o.user_id,
        template: 'session_changed',
        orderId: o.id,
      });
    });
  }
  if (orders.length) d.relay.nudge();
}

/**
 * Asks the refunds service for the full refund of up to `budget` orders. refundOrder answers
 * an existing refund of the order rather than making a second, so a row whose refund was made
 * just before a crash (refund_id not written yet) is linked, not refunded again.
 */
async function refundSome(
  d: SessionChangeDeps,
  c: repo.ChangeRow,
  now: Date,
  budget: number,
): Promise<number> {
  let asked = 0;
  for (const orderId of await repo.todoOrderIds(d.db, c.id, budget)) {
    try {
      const refund = await refundOne(d, c, orderId, now);
      await repo.markChangeOrder(
        d.db,
        c.id,
        orderId,
        refund.id
          ? { state: repo.CHANGE_ORDER.REQUESTED, refundId: refund.id, amountFen: refund.fen }
          : { state: repo.CHANGE_ORDER.NOTIFIED, amountFen: refund.fen },
      );
      if (refund.id) asked++;
    } catch (err) {
      // Our own rules refused (e.g. a ticket already checked in): an operator decides.
      if (!(err instanceof AppError)) throw err;
      d.log.warn({ orderId, changeId: c.id, code: err.code }, 'session cancel: refund refused');
      await repo.markChangeOrder(d.db, c.id, orderId, {
        state: repo.CHANGE_ORDER.FAILED,
        error: err.message,
      });
    }
  }
  return asked;
}

/**
 * One order's full refund. An exchange order (改签) holds only the difference it paid: its
 * tickets' value comes back from each payment that holds a share (exchanges/cancel-refund.ts).
 * An order whose every ticket was exchanged has nothing left here: no refund (told, 0 fen).
 * fen: what the cancellation refunds for the order, when it is not the order's amount.
 */
async function refundOne(
  d: SessionChangeDeps,
  c: repo.ChangeRow,
  orderId: string,
  now: Date,
): Promise<{ id?: string; fen?: number }> {
  const by = { kind: 'system', id: `cancel-${c.id}` } as const;
  const reason = '场次取消，全额退款';
  const exchanged = await refundCancelledExchange(d.db, orderId, { by: `${by.kind}:${by.id}`, reason, now });
  if (exchanged) {
    d.relay.nudge();
    return { id: exchanged.refund.id, fen: exchanged.fen };
  }
  if (await exchangedInFull(d.db, orderId)) return { fen: 0 };
  return { id: (await d.refundOrder({ orderId, by, reason, now })).id };
}

/** Done once every order is told, refunded or handed over, and no pending order is left. */
async function settle(d: SessionChangeDeps, c: repo.ChangeRow, now: Date): Promise<void> {
  const [counts, unreached, pending, feesDue] = await Promise.all([
    repo.changeCounts(d.db, c.id),
    repo.unreachedOrders(d.db, c, 1),
    c.kind === 'cancel' ? repo.countPending(d.db, c.session_id) : Promise.resolve(0),
    // A buyer's fee-bearing refund still in flight: its fee comes back once it is done (fees.ts).
    c.kind === 'cancel' ? repo.feeRefundsInFlight(d.db, c.session_id) : Promise.resolve(0),
  ]);
  const open = counts.waiting + counts.inProgress + pending + feesDue + unreached.length;
  if (open === 0 && c.state !== 'done') await repo.setChangeState(d.db, c.id, 'done', now);
  else if (open > 0 && c.state === 'done') await repo.setChangeState(d.db, c.id, 'running', now);
}
