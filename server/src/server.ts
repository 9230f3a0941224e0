import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Config } from './config';
import type { Clock } from './clock';
import type { Logger } from 'pino';
import { createApp, createOpsApp, leanLane } from './app';
import { apiServer } from './http/serve';
import { warmUpInstance } from './http/warm-up';
import { closeDeps, createDeps, type AppDeps } from './wiring';
import { sessionChangesOf, transfersOf } from './per-app';
import { Scheduler, type JobSpec } from './jobs/scheduler';
import { Leadership } from './jobs/leader';
import { expireDueOrders, sweepOrphanHolds } from './orders/expiry';
import { runLifecycle } from './jobs/session-lifecycle';
import { startConsumers } from './workers';
import { InventoryAudit } from './inventory/audit';
import { recoveryJobs } from './jobs/recovery';
import { enqueueReminders } from './jobs/reminders';
import { SaleReminderService } from './sale-reminders/service';
import { STAGE_GAUGES_INTERVAL_MS, StageGauges } from './metrics/snapshot';

/** One admission tick for every selling session that has a waiting room. */
export async function admitQueues(d: AppDeps, selling: string[]): Promise<void> {
  for (const id of selling) {
    const cat = await d.catalog.session(id);
    if (!cat?.queueEnabled) continue;
    const r = await d.queue.tick(cat, d.clock.now());
    if (r) d.metrics.queueAdmittedUpTo(id, r.admitted);
  }
}

export interface RunningServer {
  deps: AppDeps;
  /** The API's first listening socket's server (servers[0]). */
  server: Server;
  /** Every listening socket's server (LISTEN_SOCKETS of them, on one port). */
  servers: Server[];
  url: string;
  close(): Promise<void>;
}

/** The jobs of what follows a sale: session changes, waiting lists, reminders, transfer offers. */
function afterSaleJobs(d: AppDeps): JobSpec[] {
  const sessionChanges = sessionChangesOf(d);
  const transfers = transfersOf(d);
  const saleReminders = new SaleReminderService(d.db, d.relay);
  return [
    {
      // Cancelled and postponed sessions: notices, pending orders, refunds at the configured rate.
      name: 'session-changes',
      intervalMs: 1_000,
      run: () => sessionChanges.run(d.clock.now()),
    },
    {
      // Waiting lists: offers a crash left unmade, offers paid or expired, the lines' lengths in Redis.
      name: 'waitlist-sweep',
      intervalMs: d.config.recovery.waitlistSweepIntervalMs,
      run: () => d.waitlist.sweep(d.clock.now()),
    },
    { name: 'notice-reminders', intervalMs: 5 * 60_000, run: () => enqueueReminders(d, d.clock.now()) },
    // 开售提醒: one sale_open notice per fan once a session of the show is selling.
    { name: 'sale-open-notices', intervalMs: 30_000, run: () => saleReminders.enqueueDue(d.clock.now()) },
    // Transfer offers past the organiser's cutoff go back to VALID (admissible again).
    { name: 'transfer-expiry', intervalMs: 30_000, run: () => transfers.expireDue(d.clock.now()) },
  ];
}

/**
 * Background jobs of one instance: the singletons run on the lease holder only (they move when
 * it dies); each is still safe to run on every instance at once.
 */
export function startJobs(d: AppDeps): Scheduler {
  const leader = new Leadership(d.redis, d.keys.jobsLeader(), d.config.leaderLeaseMs, d.log);
  const scheduler = new Scheduler(d.log, leader, (job, ok) =>
    d.metrics.jobRuns.inc({ name: job, result: ok ? 'ok' : 'failed' }),
  );
  d.metrics.leadership = () => leader.isLeader;
  const stages = StageGauges.of(d.metrics);
  const released = (reason: string) => (n: number) => void d.metrics.holdsReleased.inc({ reason }, n);
  let selling: string[] = [];
  const inventoryAudit = new InventoryAudit(d);
  const expiry = {
    db: d.db,
    orders: d.orders,
    inventory: d.inventory,
    log: d.log,
    orphanGraceMs: d.config.orphanGraceMs,
  };
  scheduler.start([
    {
      name: 'session-lifecycle',
      intervalMs: d.config.expiryIntervalMs,
      run: async () => {
        selling = await runLifecycle(d, d.clock.now());
      },
    },
    {
      name: 'order-expiry',
      intervalMs: d.config.expiryIntervalMs,
      run: () => expireDueOrders(expiry, d.clock.now()).then(released('expired')),
    },
    {
      name: 'orphan-sweep',
      intervalMs: d.config.expiryIntervalMs * 5,
      run: () => sweepOrphanHolds(expiry, selling, d.clock.now()).then(released('orphan')),
    },
    {
      name: 'outbox-relay',
      intervalMs: d.config.outboxIntervalMs,
      run: () => d.relay.runOnce(),
      everyInstance: true,
    },
    { name: 'queue-admit', intervalMs: 1_000, run: () => admitQueues(d, selling) },
    {
      name: 'payment-check',
      intervalMs: 5_000,
      run: () => d.payments.checkPending(d.clock.now(), d.config.payCheckAfterMs),
    },
    {
      name: 'refund-check',
      intervalMs: 10_000,
      run: () => d.refunds.checkProcessing(d.clock.now(), d.config.payCheckAfterMs),
    },
    { name: 'reconcile', intervalMs: 10 * 60_000, run: () => d.reconciler.reconcileDue(d.clock.now()) },
    {
      name: 'inventory-audit',
      intervalMs: d.config.recovery.auditIntervalMs,
      run: () => inventoryAudit.run(selling, d.clock.now()),
    },
    ...recoveryJobs(d, () => selling),
    ...afterSaleJobs(d),
    {
      name: 'stage-gauges',
      intervalMs: STAGE_GAUGES_INTERVAL_MS,
      run: () => stages.run(d, selling, d.clock.now()),
    },
  ]);
  startConsumers(d);
  return scheduler;
}

/** A process with only consumers and jobs (ROLE=worker). */
export async function startWorker(
  config: Config,
  opts: { clock?: Clock; log?: Logger } = {},
): Promise<{ deps: AppDeps; metricsUrl?: string; close(): Promise<void> }> {
  const deps = await createDeps(config, opts);
  const scheduler = startJobs(deps);
  // The scraper's way in: a worker serves no API, only /metrics, /livez and /readyz on METRICS_PORT.
  const port = config.metricsPort;
  const ops =
    port === undefined
      ? undefined
      : await new Promise<Server>((resolve) => {
          const s = createOpsApp(deps).listen(port, config.host, () => resolve(s));
        });
  const addr = ops?.address();
  return {
    deps,
    ...(addr && typeof addr === 'object' ? { metricsUrl: `http://${config.host}:${addr.port}` } : {}),
    async close() {
      deps.lifecycle.startDrain();
      if (ops) await new Promise<void>((resolve) => ops.close(() => resolve()));
      await scheduler.stop();
      await closeDeps(deps);
    },
  };
}

/**
 * The API's HTTP servers, listening: config.listenSockets of them on the one port (SO_REUSEPORT
 * when more than one; the kernel spreads new connections over them), each serving the same app.
 * Why several: the event loop accepts one connection per listening socket per turn, and a turn
 * of a saturated instance takes tens of milliseconds (config/index.ts listenSockets).
 */
async function listenApi(config: Config, create: () => Server): Promise<{ servers: Server[]; port: number }> {
  const servers: Server[] = [];
  let port = config.port;
  const reusePort = config.listenSockets > 1;
  for (let i = 0; i < config.listenSockets; i++) {
    const listen = { port, host: config.host, backlog: config.listenBacklog, reusePort };
    const s = await new Promise<Server>((resolve) => {
      const created = create().listen(listen, () => resolve(created));
    });
    s.keepAliveTimeout = 65_000;
    // PORT=0 (tests): the first socket's port is the one the others join.
    const addr = s.address();
    if (typeof addr === 'object' && addr) port = addr.port;
    servers.push(s);
  }
  return { servers, port };
}

export async function startServer(
  config: Config,
  opts: { clock?: Clock; log?: Logger } = {},
): Promise<RunningServer> {
  const deps = await createDeps(config, opts);
  const app = createApp(deps);
  const scheduler = config.jobsEnabled && config.role === 'all' ? startJobs(deps) : undefined;
  const lane = leanLane(app, deps);
  // Not ready from its first request on, until the warm-up below has run.
  if (config.warmUpRequests > 0) deps.lifecycle.warmingUp(true);
  const { servers, port } = await listenApi(config, () => apiServer(app, deps, lane));
  await warmUpInstance(deps, servers[0]!.address() as AddressInfo, config.warmUpRequests);
  return {
    deps,
    server: servers[0]!,
    servers,
    url: `http://${config.host}:${port}`,
    async close() {
      // Stop accepting and turn not-ready, let what is running finish within the bound, then close.
      deps.lifecycle.startDrain();
      const closed = Promise.all(
        servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
      );
      const clean = await deps.lifecycle.drained(config.shutdownDrainMs);
      if (!clean)
        deps.log.warn(
          { inFlight: deps.lifecycle.inFlight, limitMs: config.shutdownDrainMs },
          'shutdown drain limit reached; cutting the requests still running',
        );
      for (const s of servers) s.closeAllConnections();
      await closed;
      await scheduler?.stop();
      await closeDeps(deps);
    },
  };
}
