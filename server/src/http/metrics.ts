import type { Context, Next } from 'koa';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Readiness } from './health';

/** The purchase route and WeChat's callbacks, as the router names them (`_matchedRoute`). */
const PURCHASE_ROUTE = '/api/v1/orders';
const NOTIFY_ROUTES: Record<string, string> = {
  '/api/v1/pay/wechat/notify': 'payment',
  '/api/v1/pay/wechat/refund-notify': 'refund',
};

/** One more of `key` (Metrics.tallied). */
function tally(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** What WeChat is told: 204 taken, 4xx refused for good (bad signature, suspicious), 5xx retry later. */
function notifyResult(status: number): string {
  return status < 300 ? 'accepted' : status < 500 ? 'rejected' : 'failed';
}

/**
 * Prometheus metrics of one app instance (own registry, so tests can run several apps).
 *
 * Aggregation across N instances (docs/monitoring.md): every counter and histogram is counted per
 * instance and adds up with `sum without (instance)`; no metric name carries an instance id (the
 * scraper adds the `instance` label). Gauges marked "leader only" describe the whole system and
 * are set only on the instance holding the job lease (elsewhere they read 0, or are absent when
 * labelled): aggregate them with `max without (instance)`.
 */
export class Metrics {
  readonly registry = new Registry();
  /**
   * Whether this instance holds the job lease; set by startJobs. Without jobs (ROLE=api, tests)
   * it is unset: the instance does not lead, and leader-only gauges show whatever was set on them.
   */
  leadership?: () => boolean;
  /**
   * Off while the instance warms up (http/warm-up.ts): its own requests, answered before it is
   * ready, are not the fans' and would show as a burst of 400s on the purchase route at every start.
   */
  countsAnswers = true;

  /**
   * Collect hook of the leader-only gauges: on an instance that does not lead they are reset (a
   * former leader never keeps its last values): absent when labelled, 0 when not.
   */
  readonly leaderOnly = () => {
    const demoted = () => this.leadership?.() === false;
    return function collect(this: Gauge) {
      if (demoted()) this.reset();
    };
  };

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly inventoryDifference = new Gauge({
    name: 'inventory_reconcile_difference',
    help: 'Leader only. Units Redis says are available minus what MySQL says, per selling session, when two audits in a row found them disagreeing (not orders in flight); back to 0 when an audit finds them agreeing',
    labelNames: ['session'],
    registers: [this.registry],
    collect: this.leaderOnly(),
  });
  readonly ticketLag = new Histogram({
    name: 'ticket_issue_lag_seconds',
    help: "From the payment being recorded (WeChat's notification or our query) to the order's tickets being issued",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900],
    registers: [this.registry],
  });
  readonly jobLeader = new Gauge({
    name: 'job_leader',
    help: 'Whether this instance holds the job lease (1) or not (0); exactly one instance should',
    registers: [this.registry],
    collect: this.leaderFlag(),
  });
  readonly ordersCreated = this.counter(
    'orders_created_total',
    'Orders committed to MySQL (each one took a hold on its seats or units)',
  );
  /** The answers' error codes and purchase results since the last scrape (answered, tallied). */
  private readonly answeredErrors = new Map<string, number>();
  private readonly answeredPurchases = new Map<string, number>();
  readonly errors = this.tallied(
    this.answeredErrors,
    'api_errors_total',
    'API errors by code (SEAT_TAKEN, SOLD_OUT, ... are the lock refusal rates)',
    'code',
  );
  readonly purchases = this.tallied(
    this.answeredPurchases,
    'purchases_total',
    'Purchase attempts (POST /api/v1/orders) by result: created, or the error code of the refusal',
    'result',
  );
  readonly notifications = this.counter(
    'wechat_notifications_total',
    'WeChat Pay callbacks by kind (payment, refund) and result (accepted; rejected: 4xx, never retried; failed: 5xx, WeChat retries)',
    'kind',
    'result',
  );
  readonly payments = this.counter(
    'payments_total',
    'Money received (notification or query) by outcome: applied, duplicate, late, double_payment, wrong_currency',
    'outcome',
  );
  readonly ticketsIssued = this.counter(
    'ticket_orders_issued_total',
    'Paid orders whose tickets were issued',
  );
  readonly holdsReleased = this.counter(
    'holds_released_total',
    'Holds given back by the jobs: expired (unpaid order past its time), orphan (Redis hold without a live order)',
    'reason',
  );
  readonly queueAdmitted = this.counter(
    'queue_admitted_total',
    'Fans admitted from the waiting room, per session (counted by the instance that ran the admission tick)',
    'session',
  );
  // `name`, not `job`: Prometheus's own job label would rename ours to exported_job.
  readonly jobRuns = this.counter(
    'job_runs_total',
    'Background job runs on this instance by job name and result (ok, failed)',
    'name',
    'result',
  );

  /** Per session, the place admitted up to at this instance's last tick (queueAdmittedUpTo). */
  private readonly admittedUpTo = new Map<string, number>();

  /** A counter in this instance's registry; its label names, if any, follow its help. */
  private counter<L extends string = never>(name: string, help: string, ...labelNames: L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  /**
   * A one-label counter that also counts what `tally` holds: the answer path adds to the map, and
   * a scrape (prom-client's collect hook, run before any read of the counter) hands it over.
   * prom-client's own inc hashes its labels on every call. A refused purchase counts an error and
   * a purchase result besides its latency: a build counting none of the three took a refusal from
   * 103 to 92 µs of CPU, and counting these two here took it from 111-125 to 102-109 µs (bench
   * ab, 2026-12-06). The map's keys are error codes and results, a fixed set.
   */
  private tallied<L extends string>(
    tally: Map<string, number>,
    name: string,
    help: string,
    label: L,
  ): Counter<L> {
    return new Counter({
      name,
      help,
      labelNames: [label],
      registers: [this.registry],
      collect(this: Counter<L>) {
        for (const [value, n] of tally) this.inc({ [label]: value } as Partial<Record<L, string>>, n);
        tally.clear();
      },
    });
  }

  private leaderFlag() {
    const leading = () => this.leadership?.() === true;
    return function collect(this: Gauge) {
      this.set(leading() ? 1 : 0);
    };
  }

  constructor(defaults = false) {
    if (defaults) collectDefaultMetrics({ register: this.registry });
  }

  /**
   * instance_ready and dependency_up, checked at each scrape (what /readyz answers): one check
   * serves both gauges of a scrape.
   */
  watchReadiness(check: () => Promise<Readiness>): void {
    let last: { at: number; p: Promise<Readiness> } | undefined;
    const current = () => {
      if (!last || Date.now() - last.at > 1_000) last = { at: Date.now(), p: check() };
      return last.p;
    };
    new Gauge({
      name: 'instance_ready',
      help: 'Whether this instance is ready for traffic (what /readyz answers): 1 ready, 0 not',
      registers: [this.registry],
      async collect() {
        this.set((await current()).ready ? 1 : 0);
      },
    });
    new Gauge({
      name: 'dependency_up',
      help: 'Whether this instance reaches a dependency (mysql, redis, rabbitmq) and has every migration',
      labelNames: ['dependency'],
      registers: [this.registry],
      async collect() {
        const r = await current();
        for (const dependency of ['mysql', 'redis', 'rabbitmq', 'migrations'] as const)
          this.set({ dependency }, r[dependency] ? 1 : 0);
      },
    });
  }

  /** shed_inflight_limit: the bound of requests in flight the shedder admits now (read at each scrape). */
  watchShedding(inflightLimit: () => number): void {
    new Gauge({
      name: 'shed_inflight_limit',
      help: 'Requests in flight this instance admits before refusing with 503 OVERLOADED (0: no bound)',
      registers: [this.registry],
      collect() {
        this.set(inflightLimit());
      },
    });
  }

  /**
   * An admission tick answers the place admitted up to (cumulative): the counter moves by the
   * difference from this instance's previous tick. The first tick an instance sees of a session
   * (it just became the leader) is only the baseline: at most one tick's admissions go uncounted.
   */
  queueAdmittedUpTo(session: string, upTo: number): void {
    const last = this.admittedUpTo.get(session);
    this.admittedUpTo.set(session, upTo);
    if (last !== undefined && upTo > last) this.queueAdmitted.inc({ session }, upTo - last);
  }

  /** A request the shedder refused before Koa (http/serve.ts), counted as the middleware counts one. */
  shedEarly(method: string | undefined): void {
    this.httpDuration.observe({ method: method ?? 'GET', route: 'unmatched', status: 503 }, 0);
    this.errors.inc({ code: 'OVERLOADED' });
  }

  /**
   * One answered request: its duration (from startedMs, performance.now()), its error code, and
   * the purchase and notification counters. The middleware and the lean lane (http/lean.ts) both
   * count through here, so a request counts the same whichever way it was served.
   */
  answered(method: string, route: string, status: number, body: unknown, startedMs: number): void {
    if (!this.countsAnswers) return;
    this.httpDuration.observe({ method, route, status }, (performance.now() - startedMs) / 1000);
    const code = status >= 400 ? (body as { error?: { code?: string } } | undefined)?.error?.code : undefined;
    if (code) tally(this.answeredErrors, code);
    // Counted here, from the answer: the purchase path itself pays nothing for its metric.
    if (method === 'POST' && route === PURCHASE_ROUTE)
      tally(this.answeredPurchases, status === 201 ? 'created' : (code ?? `http_${status}`));
    const kind = method === 'POST' ? NOTIFY_ROUTES[route] : undefined;
    if (kind) this.notifications.inc({ kind, result: notifyResult(status) });
  }

  middleware() {
    return async (ctx: Context, next: Next) => {
      const started = performance.now();
      try {
        await next();
      } finally {
        const route = String((ctx as Context & { _matchedRoute?: string })._matchedRoute ?? 'unmatched');
        this.answered(ctx.method, route, ctx.status, ctx.body, started);
      }
    };
  }
}
