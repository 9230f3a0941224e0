import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import type { RefundActor } from '../refunds/types';

/** What the change needs of the rest of the app (wired in wiring.ts). */
export interface SessionChangeDeps {
  db: Db;
  log: Logger;
  relay: { nudge(): void };
  catalog: { invalidate(sessionId: string): void };
  inventory: { setOpen(sessionId: string, open: boolean): Promise<void> };
  /** The refunds service's one path for an order's refund (refunds/service.ts refundOrder). */
  refundOrder(o: { orderId: string; by: RefundActor; reason?: string; now: Date }): Promise<{ id: string }>;
  /** A pending order of a cancelled session: cancelled, or honoured if WeChat says it was paid. */
  cancelPending(orderId: string, now: Date): Promise<'cancelled' | 'paid' | 'retry'>;
  /** Refunds the cancellation run asks for per second (SESSION_CANCEL_REFUNDS_PER_S). */
  refundsPerS: number;
}
