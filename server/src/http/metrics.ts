import type { Context, Next } from 'koa';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics of one app instance (own registry, so tests can run several apps). */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly ordersCreated = new Counter({
    name: 'orders_created_total',
    help: 'Orders committed to MySQL',
    registers: [this.registry],
  });
  readonly inventoryDifference = new Gauge({
    name: 'inventory_reconcile_difference',
    help: 'Units Redis says are available minus what MySQL says, per selling session (0 when they agree)',
    labelNames: ['session'],
    registers: [this.registry],
  });
  readonly errors = new Counter({
    name: 'api_errors_total',
    help: 'API errors by code (SEAT_TAKEN, SOLD_OUT, ... are the lock refusal rates)',
    labelNames: ['code'],
    registers: [this.registry],
  });

  constructor(defaults = false) {
    if (defaults) collectDefaultMetrics({ register: this.registry });
  }

  middleware() {
    return async (ctx: Context, next: Next) => {
      const end = this.httpDuration.startTimer();
      try {
        await next();
      } finally {
        const route = (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
        end({ method: ctx.method, route: String(route), status: ctx.status });
        const body = ctx.body as { error?: { code?: string } } | undefined;
        if (ctx.status >= 400 && body?.error?.code) this.errors.inc({ code: body.error.code });
      }
    };
  }
}
