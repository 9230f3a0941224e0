import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import type { Broker } from '../outbox/broker';
import type { RecoveryMetrics } from './metrics';
import { parkDeadLetter } from './repo';

/** Re-drives per dead letter before it is parked for an operator. */
export const DEAD_LETTER_REDRIVES_MAX = 3;
/** A dead letter first waits this long (then twice as long after each re-drive). */
export const DEAD_LETTER_REDRIVE_AFTER_MS = 60_000;

/**
 * Dead letters are re-driven with bounded retries: each goes back to its queue after waiting
 * (1, 2, 4 minutes), at most DEAD_LETTER_REDRIVES_MAX times; then it is parked in MySQL
 * (dead_letters), where the admin's operations page shows it with its repair actions.
 */
export async function redriveDeadLetters(
  d: { db: Db; broker: Broker; log: Logger },
  metrics: RecoveryMetrics,
  nowMs: number,
  o: { maxRedrives?: number; minAgeMs?: number } = {},
): Promise<{ redriven: number; parked: number }> {
  const r = await d.broker.redriveDead({
    maxRedrives: o.maxRedrives ?? DEAD_LETTER_REDRIVES_MAX,
    minAgeMs: o.minAgeMs ?? DEAD_LETTER_REDRIVE_AFTER_MS,
    nowMs,
    park: async (m) => {
      await parkDeadLetter(d.db, m);
      d.log.error(
        { queue: m.queue, messageId: m.messageId, error: m.error },
        'dead letter parked for an operator',
      );
    },
  });
  for (const [queue, n] of Object.entries(r.redriven)) metrics.redriven.inc({ queue }, n);
  for (const [queue, n] of Object.entries(r.parked)) metrics.parked.inc({ queue }, n);
  for (const [queue, n] of Object.entries(await d.broker.deadCounts())) metrics.deadLetters.set({ queue }, n);
  const sum = (x: Record<string, number>) => Object.values(x).reduce((a, b) => a + b, 0);
  return { redriven: sum(r.redriven), parked: sum(r.parked) };
}
