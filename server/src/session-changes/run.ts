import { inTransaction, type Conn } from '../db/pool';
import { eachLimited } from '../each-limited';
import { AppError } from '../errors';
import { enqueue } from '../outbox/repo';
import { exchangedInFull } from '../exchanges/repo';
import { exchangeHandOver } from '../exchanges/family-refund';
import { refundedFor } from '../refunds/repo';
import { returnFees } from './fees';
import { feesOwed } from './fees-repo';
import * as repo from './repo';
import type { SessionChangeDeps } from './deps';

/** Orders told per pass (each its own small transaction). */
const REACH_BATCH = 500;
/** Pending orders of a cancelled session cancelled per pass (each closes its WeChat order). */
const PENDING_BATCH = 100;
/**
 * Of them, cancelled side by side: each waits on WeChat (~100 ms a close), so one at a time a
 * show called off mid on-sale, with a hold's worth of pending orders, took a pass of ~10 s per
 * 100. Eight, as the expiry job's one-by-one lanes: orders of one session free the same claim
 * and quota rows, and a deadlock between two (rolled back) is only tried again on the next pass.
 */
const PENDING_PARALLEL = 8;
/** Comp orders of a cancelled session voided per pass. */
const COMP_BATCH = 100;

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
  c: repo.ChangeRecord,
  now: Date,
  budget: number,
): Promise<number> {
  // Again on every pass: the request's own close may have been lost to a crash right after commit.
  await d.inventory.setOpen(c.sessionId, false);
  // Tickets issued since (orders paid while the cancellation ran) are held too.
  await repo.holdSessionTickets(d.db, c.sessionId);
  const pending = await repo.pendingOrderIds(d.db, c.sessionId, PENDING_BATCH);
  await eachLimited(pending, PENDING_PARALLEL, async (id) => {
    // 'paid': WeChat took the money after all; the order is reached and refunded below.
    await d
      .cancelPending(id, now)
      .catch((err: unknown) => d.log.warn({ err, orderId: id }, 'cancel pending'));
  });
  await reach(d, c, repo.CHANGE_ORDER.TODO);
  const asked = await refundSome(d, c, now, budget);
  // After the money: a comp (no money) never holds up a fan's refund.
  await voidComps(d, c, now);
  // A cancellation refunds in full: fees kept by buyers' refunds in flight come back too.
  if (await returnFees(d.db, c, now, d.log)) d.relay.nudge();
  return asked;
}

/**
 * Comp tickets (赠票) of a cancelled session are voided (no money: never a refund) and their
 * claimed holder told, in the void's transaction. One admitted stays as it is (it let someone
 * in); one admitted meanwhile is refused by the void and left too.
 */
async function voidComps(d: SessionChangeDeps, c: repo.ChangeRecord, now: Date): Promise<void> {
  for (const id of await repo.compsToVoid(d.db, c.sessionId, COMP_BATCH)) {
    const tell = async (conn: Conn, holder: string | null) => {
      if (holder)
        await enqueue(conn, 'notice.send', `sc${c.id}-${id}`, {
          userId: holder,
          template: 'session_changed',
          orderId: id,
        });
    };
    // Refused (admitted meanwhile) or failed (tried again next pass): the others go on.
    await d.voidComp(id, '场次取消', now, tell).catch((err: unknown) => {
      const code = err instanceof AppError ? err.code : undefined;
      d.log.warn({ err, orderId: id, changeId: c.id, code }, 'session cancel: comp not voided');
    });
  }
}

/** Rows (and the fan's notice, in the same transaction) for the orders not reached yet. */
async function reach(d: SessionChangeDeps, c: repo.ChangeRecord, state: string): Promise<void> {
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
  c: repo.ChangeRecord,
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
      // Our own rules refused (e.g. a ticket already checked in): an operator decides, on the
      // value still held (an exchange order's with every payment's share named).
      if (!(err instanceof AppError)) throw err;
      d.log.warn({ orderId, changeId: c.id, code: err.code }, 'session cancel: refund refused');
      const family = await exchangeHandOver(d.db, orderId);
      await repo.markChangeOrder(d.db, c.id, orderId, {
        state: repo.CHANGE_ORDER.FAILED,
        error: family ? `${err.message}；${family.note}` : err.message,
        amountFen: family?.fen,
      });
    }
  }
  return asked;
}

/**
 * One order's full refund through the refunds service's one path. An exchange order (改签) holds
 * only the difference it paid: its tickets' value comes back from each payment that holds a share
 * (exchanges/family-refund.ts), all counted here. An order whose every ticket was exchanged has
 * nothing left here: no refund (told, 0 fen). fen: what the cancellation refunds for the order
 * (a partly exchanged original: only its own tickets), when its refunds say it.
 */
async function refundOne(
  d: SessionChangeDeps,
  c: repo.ChangeRecord,
  orderId: string,
  now: Date,
): Promise<{ id?: string; fen?: number }> {
  if (await exchangedInFull(d.db, orderId)) return { fen: 0 };
  const by = { kind: 'system', id: `cancel-${c.id}` } as const;
  const refund = await d.refundOrder({ orderId, by, reason: '场次取消，全额退款', now });
  const fen = await refundedFor(d.db, orderId, `${by.kind}:${by.id}`);
  // 0: the order's refund was the buyer's own (in flight): the row keeps the order's amount.
  return { id: refund.id, fen: fen > 0 ? fen : undefined };
}

/** Done once every order is told, refunded or handed over, and no pending order is left. */
async function settle(d: SessionChangeDeps, c: repo.ChangeRecord, now: Date): Promise<void> {
  const [counts, unreached, pending, feesDue] = await Promise.all([
    repo.changeCounts(d.db, c.id),
    repo.unreachedOrders(d.db, c, 1),
    c.kind === 'cancel' ? repo.countPending(d.db, c.sessionId) : Promise.resolve(0),
    // A buyer's fee-bearing refund in flight, or done and its fee not yet asked back (fees.ts).
    c.kind === 'cancel' ? feesOwed(d.db, c) : Promise.resolve(0),
  ]);
  const open = counts.waiting + counts.inProgress + pending + feesDue + unreached.length;
  if (open === 0 && c.state !== 'done') await repo.setChangeState(d.db, c.id, 'done', now);
  else if (open > 0 && c.state === 'done') await repo.setChangeState(d.db, c.id, 'running', now);
}
