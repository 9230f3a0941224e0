import { Counter, Gauge, type Registry } from 'prom-client';

/** Metrics of the recovery jobs, registered once per app registry. */
export interface RecoveryMetrics {
  deadLetters: Gauge<'queue'>;
  redriven: Counter<'queue'>;
  parked: Counter<'queue'>;
}

const byRegistry = new WeakMap<Registry, RecoveryMetrics>();

/**
 * `collect` makes dead_letters leader only (Metrics.leaderOnly): the re-drive job that sets it
 * runs on the job leader, and a former leader must not keep reporting its last count.
 */
export function recoveryMetrics(registry: Registry, collect?: (this: Gauge) => void): RecoveryMetrics {
  let m = byRegistry.get(registry);
  if (!m) {
    m = {
      deadLetters: new Gauge({
        name: 'dead_letters',
        help: "Leader only. Messages in a consumer's dead-letter queue (after the last re-drive run)",
        labelNames: ['queue'],
        registers: [registry],
        ...(collect ? { collect } : {}),
      }),
      redriven: new Counter({
        name: 'dead_letters_redriven_total',
        help: 'Dead letters sent back to their queue',
        labelNames: ['queue'],
        registers: [registry],
      }),
      parked: new Counter({
        name: 'dead_letters_parked_total',
        help: 'Dead letters that failed every re-drive, parked in MySQL for an operator',
        labelNames: ['queue'],
        registers: [registry],
      }),
    };
    byRegistry.set(registry, m);
  }
  return m;
}
