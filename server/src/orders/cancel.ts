import type { Logger } from 'pino';
import { inTransaction, type Db } from '../db/pool';
import { workflow } from '../lifecycle/workflow';
import type { RiskService } from '../risk/service';
import { isOfferKey } from './offer';
import { cancelPending, forgetAdmissionUse } from './repo';
import type { OrderRecord } from './types';

/** Before a pending order is cancelled: was a payment started that must be closed or honoured? */
export type CancelGuard = (orderId: string, now: Date) => Promise<'cancel' | 'paid' | 'retry'>;

export interface CancelDeps {
  db: Db;
  guard: CancelGuard;
  risk: RiskService;
  log: Logger;
  /** Gives the order's units back in Redis; logs a failure (the orphan sweep frees them later). */
  release(sessionId: string, orderId: string, returnTurn?: string): Promise<void>;
}

/** Why a pending order is given up: the buyer, its hold's expiry, or the organiser's cancel. */
export type CancelReason = 'buyer' | 'expired' | 'session_cancelled';

/** One cancellation as it goes through the workflow's steps. */
export interface Cancellation {
  d: CancelDeps;
  orderId: string;
  reason: CancelReason;
  now: Date;
  /** The waiting-room turn the buyer gets back (a buyer's own cancel). */
  returnTurn?: string | undefined;
  /** Set by the first step: 'cancel', or WeChat says it was paid ('paid'), or unsure ('retry'). */
  settled?: 'cancel' | 'paid' | 'retry';
  /** Set by the MySQL step: the order as cancelled (undefined: another instance moved it first). */
  cancelled?: OrderRecord;
}

/**
 * Giving up a pending order (the buyer's cancel, the expiry job, a cancelled session), as named
 * steps (lifecycle/workflow.ts):
 *  1. settle the payment at WeChat: close the WeChat order, or learn that it was paid (then the
 *     order is honoured by the payment path and nothing below runs);
 *  2. cancel in MySQL, conditional on PENDING (and, for expiry, on the hold having expired),
 *     with the waiting-room turn given back in the same transaction;
 *  3. give the units back in Redis;
 *  4. count the unpaid hold toward the hold cooldown (expiry and the buyer's own cancel only:
 *     hold -> cancel -> hold again must not keep seats off sale for ever; a waiting-list offer
 *     was not the fan's hold, and a cancelled session is no fault of the fan).
 * No step has a compensation, and none is needed: step 2 is the decision (its own transaction),
 * a failed step 3 leaves MySQL's claims freed and the orphan sweep frees Redis, and step 4 is
 * best effort. Every step is safe to repeat.
 */
export const CANCEL = workflow<Cancellation>(
  'cancel a pending order',
  [
    { name: 'settle the payment at WeChat', run: settle },
    { name: 'cancel in MySQL, give the turn back', run: cancelInMysql },
    { name: 'give the units back in Redis', run: releaseUnits },
    { name: 'count the unpaid hold', run: countUnpaidHold },
  ],
  () => false,
);

async function settle(c: Cancellation): Promise<void> {
  c.settled = await c.d.guard(c.orderId, c.now);
}

async function cancelInMysql(c: Cancellation): Promise<void> {
  if (c.settled !== 'cancel') return;
  c.cancelled = await inTransaction(c.d.db, async (conn) => {
    const o = await cancelPending(conn, c.orderId, c.reason, c.now, c.reason === 'expired');
    if (o && c.returnTurn) await forgetAdmissionUse(conn, c.returnTurn, c.orderId);
    return o;
  });
}

async function releaseUnits(c: Cancellation): Promise<void> {
  if (c.cancelled) await c.d.release(c.cancelled.sessionId, c.cancelled.id, c.returnTurn);
}

async function countUnpaidHold(c: Cancellation): Promise<void> {
  if (!c.cancelled || c.reason === 'session_cancelled' || isOfferKey(c.cancelled.idempotencyKey)) return;
  await c.d.risk
    .onHoldExpired(c.cancelled.userId)
    .catch((err) => c.d.log.error({ err, reason: c.reason }, 'unpaid-hold streak'));
}
