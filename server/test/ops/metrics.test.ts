import type { Registry } from 'prom-client';
import { Metrics } from '../../src/http/metrics';
import { Scheduler } from '../../src/jobs/scheduler';
import { StageGauges } from '../../src/metrics/snapshot';
import { admitQueues, startWorker } from '../../src/server';
import { createSession, type SessionFixture } from '../helpers/fixtures';
import { payEnvWithSession, type PayEnv } from '../helpers/pay-env';

/**
 * The metrics of every stage move with the real thing: purchases through the API, payments through
 * the simulator's signed notifications, tickets by the RabbitMQ consumer, gauges read from MySQL
 * and Redis. Real MariaDB, Redis and RabbitMQ.
 */
let p: PayEnv;
let s: SessionFixture;

beforeAll(async () => {
  ({ p, s } = await payEnvWithSession(20));
});
afterAll(() => p.close());

/** The value of one series (undefined when the series is absent). */
async function value(name: string, labels: Record<string, string> = {}, registry?: Registry) {
  const base = name.replace(/_(count|sum|bucket)$/, '');
  const metric = (registry ?? p.deps.metrics.registry).getSingleMetric(base) ?? undefined;
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  const hit = values.find(
    (v) =>
      ((v as { metricName?: string }).metricName ?? name) === name &&
      Object.entries(labels).every(([k, want]) => String((v.labels as Record<string, unknown>)[k]) === want),
  );
  return hit?.value;
}
const count = async (name: string, labels?: Record<string, string>) => (await value(name, labels)) ?? 0;

describe('the purchase, payment and ticket stages', () => {
  it('counts purchases by result, the payment, the notification and the notify → ticket lag', async () => {
    const before = await count('purchases_total', { result: 'created' });
    const { fan, orderNo, payParams } = await p.orderAndPrepay('openid-metrics', {
      sessionId: s.sessionId,
      seatIds: [s.seatIds[0]],
    });
    expect(await count('purchases_total', { result: 'created' })).toBe(before + 1);
    // the same seat again: refused, counted under its error code
    const again = await p.api.call('POST', '/api/v1/orders', {
      token: fan.token,
      body: { sessionId: s.sessionId, seatIds: [s.seatIds[0]] },
    });
    expect(again.status).toBe(409);
    expect(await count('purchases_total', { result: again.body.error.code })).toBe(1);

    p.sim.pay(payParams);
    await p.until(async () => (await count('ticket_orders_issued_total')) >= 1, 'tickets issued');
    expect(await count('payments_total', { outcome: 'applied' })).toBe(1);
    expect(await count('wechat_notifications_total', { kind: 'payment', result: 'accepted' })).toBe(1);
    expect(await count('ticket_issue_lag_seconds_count')).toBe(1);
    // the lag is measured from the recorded payment on the same clock: small, never negative
    const lagSum = await count('ticket_issue_lag_seconds_sum');
    expect(lagSum).toBeGreaterThanOrEqual(0);
    expect(lagSum).toBeLessThan(60);

    // and the whole text is what the scraper gets from /metrics
    const text = await p.api.call('GET', '/metrics');
    expect(text.status).toBe(200);
    expect(text.body).toContain(`purchases_total{result="created"} ${before + 1}`);
    expect(text.body).toContain('payments_total{outcome="applied"} 1');
    expect(text.body).toMatch(/^instance_ready [01]$/m); // 0 only if a check took over 1 s (loaded machine)
    expect(text.body).toMatch(/^dependency_up\{dependency="rabbitmq"\} 1$/m);
    // this test process leads no jobs: the system-wide gauges are absent, not stale or doubled
    expect(text.body).toMatch(/^job_leader 0$/m);
    expect(orderNo).toBeTruthy();
  });

  it('counts a refused notification (bad signature) as rejected', async () => {
    const r = await p.api.call('POST', '/api/v1/pay/wechat/notify', { raw: '{"id":"forged"}' });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(await count('wechat_notifications_total', { kind: 'payment', result: 'rejected' })).toBe(1);
  });
});

describe('system-wide gauges (job leader only)', () => {
  it('read holds, paid orders awaiting tickets, refunds, the outbox and the waiting room; absent off the leader', async () => {
    const stages = StageGauges.of(p.deps.metrics);
    p.deps.metrics.leadership = () => true;
    try {
      // one open hold
      const held = await p.orderAndPrepay('openid-holder', {
        sessionId: s.sessionId,
        seatIds: [s.seatIds[1]],
      });
      // one paid, ticketed and refunded order
      const bought = await p.orderAndPrepay('openid-refunder', {
        sessionId: s.sessionId,
        seatIds: [s.seatIds[2]],
      });
      p.sim.pay(bought.payParams);
      await p.until(async () => {
        const o = await p.api.call('GET', `/api/v1/orders/${bought.orderNo}`, { token: bought.fan.token });
        return o.body.status === 'ticketed';
      }, 'ticketed');
      const refund = await p.api.call('POST', `/api/v1/orders/${bought.orderNo}/refund`, {
        token: bought.fan.token,
        body: { reason: '测试' },
      });
      expect(refund.status).toBeLessThan(300);
      await p.until(async () => {
        const o = await p.api.call('GET', `/api/v1/orders/${bought.orderNo}`, { token: bought.fan.token });
        return o.body.status === 'refunded';
      }, 'refunded');

      await stages.run(p.deps, [], p.clock.now());
      expect(await value('holds_active')).toBe(1);
      expect(await value('orders_paid_awaiting_tickets')).toBe(0);
      expect(await value('refunds', { state: 'succeeded' })).toBe(1);
      expect(await value('refunds', { state: 'abnormal' })).toBe(0);
      expect(await value('refunds_fen', { state: 'succeeded' })).toBe(bought.order.amountFen);
      expect(await value('outbox_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(await value('job_leader')).toBe(1);

      // a paid order whose tickets do not come: the consumers are bypassed by paying in SQL
      await p.deps.db.query('UPDATE orders SET status = 2, paid_at = ? WHERE order_no = ?', [
        new Date(p.clock.now().getTime() - 300_000),
        held.orderNo,
      ]);
      await stages.run(p.deps, [], p.clock.now());
      expect(await value('holds_active')).toBe(0);
      expect(await value('orders_paid_awaiting_tickets')).toBe(1);
      expect(await value('orders_paid_awaiting_tickets_oldest_seconds')).toBeCloseTo(300, 0);

      p.deps.metrics.leadership = () => false;
      // off the leader: unlabelled gauges read 0, labelled ones are gone (max over instances holds)
      expect(await value('orders_paid_awaiting_tickets')).toBe(0);
      expect(await value('refunds', { state: 'succeeded' })).toBeUndefined();
      expect(await value('job_leader')).toBe(0);
    } finally {
      p.deps.metrics.leadership = undefined;
    }
  });

  it('the waiting room: length per session and admissions counted by the admission tick', async () => {
    const q = await createSession(p.deps, { seats: 10 });
    await p.deps.db.query(
      'UPDATE show_sessions SET queue_enabled = 1, queue_rate_per_min = 6000 WHERE id = ?',
      [q.sessionId],
    );
    p.deps.catalog.invalidate(q.sessionId);
    for (let i = 0; i < 5; i++) await p.deps.queue.join(`qfan${i}`, q.sessionId, {}, p.clock.now());
    const stages = StageGauges.of(p.deps.metrics);
    p.deps.metrics.leadership = () => true;
    try {
      await stages.run(p.deps, [q.sessionId], p.clock.now());
      expect(await value('queue_waiting', { session: q.sessionId })).toBe(5);
      await admitQueues(p.deps, [q.sessionId]); // opens the room: no time has passed, nobody admitted
      expect(await count('queue_admitted_total', { session: q.sessionId })).toBe(0);
      p.clock.advance(1_000); // 6000 a minute: 100 places' worth in a second, the 5 waiting go in
      await admitQueues(p.deps, [q.sessionId]);
      const admitted = await count('queue_admitted_total', { session: q.sessionId });
      expect(admitted).toBe(5);
      await stages.run(p.deps, [q.sessionId], p.clock.now());
      expect(await value('queue_waiting', { session: q.sessionId })).toBe(5 - admitted);
      // a session that stopped selling drops out
      await stages.run(p.deps, [], p.clock.now());
      expect(await value('queue_waiting', { session: q.sessionId })).toBeUndefined();
    } finally {
      p.deps.metrics.leadership = undefined;
    }
  });
});

describe('jobs and workers', () => {
  it('counts job runs by result', async () => {
    const scheduler = new Scheduler(p.deps.log, undefined, (job, ok) =>
      p.deps.metrics.jobRuns.inc({ name: job, result: ok ? 'ok' : 'failed' }),
    );
    let runs = 0;
    scheduler.start([
      { name: 't-ok', intervalMs: 5, run: async () => void runs++ },
      {
        name: 't-bad',
        intervalMs: 5,
        run: async () => {
          throw new Error('boom');
        },
      },
    ]);
    await p.until(
      async () => runs >= 2 && (await count('job_runs_total', { name: 't-bad', result: 'failed' })) >= 2,
      'runs',
    );
    await scheduler.stop();
    expect(await count('job_runs_total', { name: 't-ok', result: 'ok' })).toBeGreaterThanOrEqual(2);
  });

  it('a worker (ROLE=worker) serves /metrics, /livez and /readyz on METRICS_PORT, and leads the jobs', async () => {
    const worker = await startWorker(
      { ...p.config, role: 'worker', metricsPort: 0, leaderLeaseMs: 1_000 },
      { clock: p.clock, log: p.deps.log },
    );
    try {
      expect(worker.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${worker.metricsUrl}/livez`)).status).toBe(200);
      // (a check answers within a second, so on a loaded machine ask again)
      await p.until(async () => (await fetch(`${worker.metricsUrl}/readyz`)).status === 200, 'ready', 20_000);
      await p.until(
        async () => {
          const t = await (await fetch(`${worker.metricsUrl}/metrics`)).text();
          return /^job_leader 1$/m.test(t) && /^instance_ready 1$/m.test(t);
        },
        'the worker leads and is ready',
        20_000,
      );
      expect((await fetch(`${worker.metricsUrl}/api/v1/sessions`)).status).toBe(404);
    } finally {
      await worker.close();
    }
  });
});

describe('answers counted until a scrape reads them', () => {
  it('hands each answer over once, added to what was counted directly', async () => {
    const m = new Metrics();
    const refused = { error: { code: 'SEAT_TAKEN', message: '' } };
    m.answered('POST', '/api/v1/orders', 409, refused, performance.now());
    m.answered('POST', '/api/v1/orders', 409, refused, performance.now());
    m.errors.inc({ code: 'SEAT_TAKEN' }); // as shedEarly counts its refusals
    const read = async () => ({
      errors: (await m.errors.get()).values.find((v) => v.labels.code === 'SEAT_TAKEN')?.value,
      purchases: (await m.purchases.get()).values.find((v) => v.labels.result === 'SEAT_TAKEN')?.value,
    });
    expect(await read()).toEqual({ errors: 3, purchases: 2 });
    // A second read counts nothing twice; a later answer counts once.
    expect(await read()).toEqual({ errors: 3, purchases: 2 });
    m.answered('POST', '/api/v1/orders', 201, {}, performance.now());
    m.answered('POST', '/api/v1/orders', 409, refused, performance.now());
    expect(await read()).toEqual({ errors: 4, purchases: 3 });
    expect(await m.registry.metrics()).toContain('purchases_total{result="created"} 1');
  });
});
