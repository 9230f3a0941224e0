import type { Logger } from 'pino';
import type { Conn, Db } from '../db/pool';
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
  /**
   * Voids a comp order (comp/service.ts void: never a refund, an admitted one refused); `also`
   * runs in its transaction with the comp's holder (null: not claimed yet).
   */
  voidComp(
    orderId: string,
    reason: string,
    now: Date,
    also: (c: Conn, holder: string | null) => Promise<void>,
  ): Promise<unknown>;
  /** Refunds the cancellation run asks for per second (SESSION_CANCEL_REFUNDS_PER_S). */
  refundsPerS: number;
}
