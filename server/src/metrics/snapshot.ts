import { Gauge } from 'prom-client';
import type { CatalogService } from '../catalog/service';
import type { Db } from '../db/pool';
import type { Metrics } from '../http/metrics';
import { stageCounts, type StageCounts } from './repo';

/** What the snapshot reads of the app: the database, the catalog and the waiting-room lengths. */
export interface SnapshotDeps {
  db: Db;
  catalog: Pick<CatalogService, 'session'>;
  admin: { dashboard: { queueLength(sessionId: string): Promise<number> } };
}

/** How often the job leader refreshes the system-wide gauges (a scrape every 15 s sees fresh ones). */
export const STAGE_GAUGES_INTERVAL_MS = 15_000;

const ageS = (since: Date | null, now: Date) =>
  since ? Math.max(0, (now.getTime() - since.getTime()) / 1000) : 0;

/**
 * System-wide gauges of every stage, read from MySQL and Redis by the job leader only: N
 * instances would otherwise report the same totals N times. On any other instance they read 0
 * (labelled ones: absent; Metrics.leaderOnly), so `max without (instance)` gives the one value
 * (every one of them is a count, an age or a time: never below 0).
 */
export class StageGauges {
  private static readonly byMetrics = new WeakMap<Metrics, StageGauges>();
  private readonly g;

  /** The gauges of this registry (registered once, however often the jobs are started). */
  static of(metrics: Metrics): StageGauges {
    let g = StageGauges.byMetrics.get(metrics);
    if (!g) StageGauges.byMetrics.set(metrics, (g = new StageGauges(metrics)));
    return g;
  }

  private constructor(metrics: Metrics) {
    const gauge = (name: string, help: string, labelNames: string[] = []) =>
      new Gauge({
        name,
        help: `Leader only. ${help}`,
        labelNames,
        registers: [metrics.registry],
        collect: metrics.leaderOnly(),
      });
    this.g = {
      holds: gauge('holds_active', 'Unpaid orders whose hold is still running'),
      paidAwaiting: gauge('orders_paid_awaiting_tickets', 'Paid orders whose tickets are not issued yet'),
      paidAwaitingAge: gauge(
        'orders_paid_awaiting_tickets_oldest_seconds',
        'How long the oldest paid order has waited for its tickets (0: none waiting)',
      ),
      outboxPending: gauge('outbox_pending', 'Outbox messages not yet handed to RabbitMQ'),
      outboxLag: gauge(
        'outbox_lag_seconds',
        'Age of the oldest outbox message not yet handed to RabbitMQ (0: none)',
      ),
      refunds: gauge('refunds', 'Refunds by state', ['state']),
      refundsFen: gauge('refunds_fen', 'Refunded or to-be-refunded money by refund state, in fen', ['state']),
      refundOpenAge: gauge(
        'refunds_open_oldest_seconds',
        'How long the oldest refund not yet settled by WeChat (requested, processing) has been open (0: none)',
      ),
      refundCases: gauge('refund_cases_open', 'Refunds handed to an operator (ABNORMAL), not yet resolved'),
      parked: gauge(
        'dead_letters_parked',
        'Messages that failed every re-drive, parked in MySQL for an operator',
      ),
      reconcileUnmatched: gauge(
        'reconcile_unmatched',
        "Differences between WeChat's bill and our payments/refunds on the latest reconciled day",
      ),
      reconcileFinished: gauge(
        'reconcile_last_finished_timestamp_seconds',
        'When the latest reconciliation day finished (Unix time; 0: never)',
      ),
      queueWaiting: gauge('queue_waiting', 'Fans in the waiting room not yet admitted, per selling session', [
        'session',
      ]),
    };
  }

  /** One refresh: everything read first, then set in one go (a scrape never sees half of it). */
  async run(d: SnapshotDeps, selling: string[], now: Date): Promise<void> {
    const c = await stageCounts(d.db, now);
    const waiting = await this.queueLengths(d, selling);
    this.set(c, waiting, now);
  }

  private async queueLengths(d: SnapshotDeps, selling: string[]): Promise<[string, number][]> {
    const out: [string, number][] = [];
    for (const id of selling) {
      const cat = await d.catalog.session(id);
      if (cat?.queueEnabled) out.push([id, await d.admin.dashboard.queueLength(id)]);
    }
    return out;
  }

  private set(c: StageCounts, waiting: [string, number][], now: Date): void {
    const g = this.g;
    g.holds.set(c.holdsActive);
    g.paidAwaiting.set(c.paidAwaitingTickets);
    g.paidAwaitingAge.set(ageS(c.paidAwaitingTicketsSince, now));
    g.outboxPending.set(c.outboxPending);
    g.outboxLag.set(c.outboxLagS);
    g.refunds.reset();
    g.refundsFen.reset();
    for (const r of c.refunds) {
      g.refunds.set({ state: r.state }, r.count);
      g.refundsFen.set({ state: r.state }, r.fen);
    }
    g.refundOpenAge.set(ageS(c.refundOpenSince, now));
    g.refundCases.set(c.refundCasesOpen);
    g.parked.set(c.deadLettersParked);
    g.reconcileUnmatched.set(c.reconcileUnmatched);
    g.reconcileFinished.set(c.reconcileFinishedAt ? c.reconcileFinishedAt.getTime() / 1000 : 0);
    // Sessions that stopped selling drop out rather than keep their last length.
    g.queueWaiting.reset();
    for (const [session, n] of waiting) g.queueWaiting.set({ session }, n);
  }
}
