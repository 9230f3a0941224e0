import type { Logger } from 'pino';
import { inTransaction, type Db } from '../db/pool';
import { moveMany } from '../lifecycle/repo';
import { ORDER_LIFECYCLE } from '../lifecycle/transitions';
import type { RiskService } from '../risk/service';
import { isOfferKey } from './offer';
import { lockOrders, releaseClaimsOfMany } from './repo';
import { ORDER_STATUS, type OrderRecord } from './types';

export interface ExpireBatchDeps {
  db: Db;
  risk: RiskService;
  log: Logger;
  /** Gives an order's units back in Redis; logs a failure (the orphan sweep frees them later). */
  release(sessionId: string, orderId: string): Promise<void>;
}

/**
 * The expiry of many due orders at once, for the plain case: a PENDING order past its hold with
 * no payment left open at WeChat. Either its payment never started (no prepay id: the cancel
 * guard would answer 'cancel' without asking WeChat), or the guard has just closed it (`settled`:
 * the job asked WeChat for each, side by side, orders/expiry.ts). An on-sale's unpaid holds fall
 * due at the rate they were taken, thousands a second, and one cancel workflow per order (eleven
 * statements) expired them slower than that: their seats stayed off sale after their hold, and
 * past HOLD_GRACE_MS Redis offered seats that MySQL still claimed.
 *
 * One transaction locks the batch's orders in id order (as every batch locks orders), decides
 * under the lock, cancels the plain ones and frees their MySQL claims and quota: the cancel
 * workflow's step 2 for all of them. Then, as its steps 3 and 4: their Redis holds go back and
 * their buyers' streaks count them (a waiting-list offer's order is not the fan's hold). An order
 * whose payment started and was not settled is returned, to be settled first (the guard, one
 * home for closing or honouring a payment); one no longer pending, or not yet due, has nothing
 * to expire. A settled order is safe to cancel here: WeChat closed its trade, so no payment can
 * complete it, and a fan cannot start another once it is due (payments/service.ts prepay).
 */
export async function expirePlain(
  d: ExpireBatchDeps,
  ids: readonly string[],
  now: Date,
  settled: ReadonlySet<string> = new Set(),
): Promise<{ cancelled: OrderRecord[]; paymentStarted: string[] }> {
  const due = (o: OrderRecord) => o.status === ORDER_STATUS.PENDING && o.expireAt.getTime() <= now.getTime();
  const { cancelled, paymentStarted } = await inTransaction(d.db, async (conn) => {
    const locked = (await lockOrders(conn, ids)).filter(due);
    const open = (o: OrderRecord) => Boolean(o.prepayId) && !settled.has(o.id);
    const plain = locked.filter((o) => !open(o));
    const plainIds = plain.map((o) => o.id);
    await moveMany(conn, 'orders', plainIds, ORDER_LIFECYCLE.cancel, {
      cancelled_at: now,
      cancel_reason: 'expired',
    });
    await releaseClaimsOfMany(conn, plain);
    return { cancelled: plain, paymentStarted: locked.filter(open).map((o) => o.id) };
  });
  await Promise.all(cancelled.map((o) => d.release(o.sessionId, o.id)));
  const holds = cancelled.filter((o) => !isOfferKey(o.idempotencyKey)).map((o) => o.userId);
  await d.risk.onHoldsExpired(holds).catch((err) => d.log.error({ err }, 'unpaid-hold streaks'));
  return { cancelled, paymentStarted };
}
