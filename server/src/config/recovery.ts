import { z } from 'zod';

/** A job period: at least 100 ms (a 0 would spin the scheduler), at most a day. */
const period = (def: number) => z.coerce.number().int().min(100).max(86_400_000).default(def);

/**
 * How often the recovery jobs (server/src/jobs) run. Each is idempotent and bounded per run,
 * so a shorter period only heals sooner at the price of more queries.
 */
const Env = z.object({
  /** Dead letters: re-driven (bounded retries) or parked for an operator. */
  RECOVERY_REDRIVE_INTERVAL_MS: period(30_000),
  /** Paid orders without tickets, and refunds WeChat refused (sent again after their backoff). */
  RECOVERY_SWEEP_INTERVAL_MS: period(30_000),
  /** Sold seats of refunded orders that Redis still holds. */
  RECOVERY_SEATS_INTERVAL_MS: period(60_000),
  /** Redis/MySQL inventory audit (repairs, rebuilds when a difference persists). */
  RECOVERY_AUDIT_INTERVAL_MS: period(60_000),
  /** Rows of expired waiting-room admission tokens are deleted (batched). */
  RECOVERY_PURGE_INTERVAL_MS: period(3_600_000),
  /** The waiting-list sweep: offers units no run offered (a crash after a release), settles offers. */
  WAITLIST_SWEEP_INTERVAL_MS: period(10_000),
  /** How long a waiting-list offer holds returned units for its fan (waitlist/): 1 min .. 1 day. */
  WAITLIST_OFFER_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .max(86_400_000)
    .default(15 * 60_000),
  /** Refunds a cancelled session's run asks for per second (WeChat Pay's merchant rate limits). */
  SESSION_CANCEL_REFUNDS_PER_S: z.coerce.number().int().min(1).max(1_000).default(20),
});

export interface RecoveryConfig {
  redriveIntervalMs: number;
  sweepIntervalMs: number;
  seatsIntervalMs: number;
  auditIntervalMs: number;
  purgeIntervalMs: number;
  /** The session-changes run (session-changes/run.ts): refunds asked per second. */
  sessionCancelRefundsPerS: number;
  waitlistSweepIntervalMs: number;
  /** A waiting-list offer's hold: its pending order's expire_at is this long after the offer. */
  waitlistOfferMs: number;
}

export function loadRecoveryConfig(source: NodeJS.ProcessEnv): RecoveryConfig {
  const parsed = Env.safeParse(source);
  if (!parsed.success) throw new Error(`Invalid configuration: ${z.prettifyError(parsed.error)}`);
  const e = parsed.data;
  return {
    redriveIntervalMs: e.RECOVERY_REDRIVE_INTERVAL_MS,
    sweepIntervalMs: e.RECOVERY_SWEEP_INTERVAL_MS,
    seatsIntervalMs: e.RECOVERY_SEATS_INTERVAL_MS,
    auditIntervalMs: e.RECOVERY_AUDIT_INTERVAL_MS,
    purgeIntervalMs: e.RECOVERY_PURGE_INTERVAL_MS,
    sessionCancelRefundsPerS: e.SESSION_CANCEL_REFUNDS_PER_S,
    waitlistSweepIntervalMs: e.WAITLIST_SWEEP_INTERVAL_MS,
    waitlistOfferMs: e.WAITLIST_OFFER_MS,
  };
}
