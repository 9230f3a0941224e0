import { expireDueOrders } from '../../src/orders/expiry';
import type { TestEnv } from './env';

/** One run of the expiry job (unpaid orders past their time), as the scheduler runs it. */
export function expireDue(env: TestEnv, now: Date = env.clock.now()): Promise<number> {
  return expireDueOrders(
    {
      db: env.deps.db,
      orders: env.deps.orders,
      inventory: env.deps.inventory,
      log: env.deps.log,
      orphanGraceMs: 60_000,
    },
    now,
  );
}
