import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import { appError } from '../errors';
import { sleep, type InventoryService } from '../inventory/service';
import { orders } from './repo';
import { ORDER_STATUS, type OrderRecord } from './types';
import { WriteError } from './writer';

/**
 * After the purchase workflow: what a request gets when its write failed or when its key had
 * already booked an order (a replay). Both answer an order that MySQL holds, or a refusal.
 */
export interface ReplayDeps {
  db: Db;
  inventory: InventoryService;
  log: Logger;
}

const WRITE_REFUSALS = {
  seat_taken: ['SEAT_TAKEN', undefined],
  unit_taken: ['SOLD_OUT', undefined],
  id_taken: ['ID_TAKEN', undefined],
  limit: ['LIMIT_EXCEEDED', undefined],
  admission_used: ['QUEUE_REQUIRED', undefined],
  show_limit: ['LIMIT_EXCEEDED', '超出本演出每人限购数量'],
} as const;

/** How long a retry waits for the first request with its idempotency key to finish writing. */
const REPLAY_WAIT_MS = 3_000;

/**
 * The write failed: a duplicate key answers the order that key booked (the same request
 * only), a claim MySQL refused answers its refusal, anything else is a 503.
 */
export async function afterWriteFailure(
  d: ReplayDeps,
  err: unknown,
  userId: string,
  key: string | undefined,
  hash: string,
  now: Date,
): Promise<OrderRecord> {
  if (!(err instanceof WriteError)) throw err;
  if (err.reason === 'idempotency_duplicate' && key) {
    const existing = await orders.byIdempotencyKey(d.db, userId, key);
    if (existing && existing.requestHash === hash) {
      if (existing.status === ORDER_STATUS.PENDING)
        relearn(d, existing, now).catch((e) =>
          d.log.error({ err: e }, 'relearn an order Redis let go of failed'),
        );
      return existing;
    }
    throw appError('IDEMPOTENCY_CONFLICT');
  }
  if (err.reason in WRITE_REFUSALS) {
    const [code, message] = WRITE_REFUSALS[err.reason as keyof typeof WRITE_REFUSALS];
    throw appError(code, undefined, message);
  }
  d.log.error({ err: err.cause }, 'order write failed');
  throw appError('SERVICE_UNAVAILABLE');
}

/**
 * MySQL has this pending order but Redis may not: when its commit's answer was lost, the
 * request failed and gave its holds back. Redis learns it again from MySQL, or the seat map
 * would show its seats free until it is paid or expires.
 */
async function relearn(d: ReplayDeps, o: OrderRecord, now: Date): Promise<void> {
  if (!(await d.inventory.heldUnits(o.sessionId, o.id)))
    await d.inventory.rebuild(o.sessionId, now.getTime());
}

/**
 * The same key arrived again; its order may still be on its way to MySQL. Answers the order
 * once it is there, or undefined if the first request failed and released its key.
 */
export async function awaitReplay(
  d: ReplayDeps,
  userId: string,
  orderId: string,
  sessionId: string,
  idemField: string,
): Promise<OrderRecord | undefined> {
  for (let waited = 0; waited <= REPLAY_WAIT_MS; waited += 25) {
    const o = await orders.ofUser(d.db, orderId, userId);
    if (o) return o;
    if ((await d.inventory.idempotentOrder(sessionId, idemField)) !== orderId) return undefined;
    await sleep(25);
  }
  throw appError('REQUEST_IN_PROGRESS');
}
