import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Metrics } from '../http/metrics';
import type { JobSpec } from './scheduler';
import { purgeAdmissionUses } from './admission-purge';
import { redriveDeadLetters } from './dead-letters';
import { recoveryMetrics } from './metrics';
import { sweepRefundedSeats } from './refunded-seats';
import { resendStuckRefunds, sweepPaidWithoutTickets } from './stuck-money';

/** A paid order gets this long for its tickets from the consumer before the sweeper steps in. */
export const PAID_TICKETS_GRACE_MS = 120_000;
/** A refund gets this long to be accepted by WeChat through its consumer first. */
export const REFUND_RESEND_AFTER_MS = 60_000;

/** What the recovery jobs use of the app (the app's dependencies have all of it). */
export type RecoveryDeps = { clock: Clock; metrics: Metrics; config: Pick<Config, 'recovery'> } & Parameters<
  typeof redriveDeadLetters
>[0] &
  Parameters<typeof sweepPaidWithoutTickets>[0] &
  Parameters<typeof resendStuckRefunds>[0] &
  Parameters<typeof sweepRefundedSeats>[0];

/**
 * The recovery jobs (issue 10): nothing waits for an operator unless it must. Each is safe on
 * every instance at once (idempotent handlers, conditional updates, stable out_refund_no).
 * `selling` answers the sessions the lifecycle job found selling.
 */
export function recoveryJobs(d: RecoveryDeps, selling: () => string[]): JobSpec[] {
  const metrics = recoveryMetrics(d.metrics.registry, d.metrics.leaderOnly());
  const every = d.config.recovery;
  return [
    {
      name: 'dead-letter-redrive',
      intervalMs: every.redriveIntervalMs,
      run: () => redriveDeadLetters(d, metrics, Date.now()),
    },
    {
      name: 'paid-without-tickets',
      intervalMs: every.sweepIntervalMs,
      run: () => sweepPaidWithoutTickets(d, d.clock.now(), PAID_TICKETS_GRACE_MS),
    },
    {
      name: 'refund-resend',
      intervalMs: every.sweepIntervalMs,
      run: () => resendStuckRefunds(d, d.clock.now(), REFUND_RESEND_AFTER_MS),
    },
    {
      name: 'refunded-seats',
      intervalMs: every.seatsIntervalMs,
      run: () => sweepRefundedSeats(d, selling()),
    },
    {
      name: 'admission-purge',
      intervalMs: every.purgeIntervalMs,
      run: () => purgeAdmissionUses(d, d.clock.now()),
    },
  ];
}
