import Router from '@koa/router';
import type { Db } from '../db/pool';
import { pendingMigrations } from '../db/migrate';
import { ping } from '../db/ping';
import type { Broker } from '../outbox/broker';
import type { ScriptedRedis } from '../redis/scripts';
import type { Lifecycle } from './lifecycle';

/** A dependency that does not answer within this long counts as down for readiness. */
const CHECK_TIMEOUT_MS = 1_000;

function within<T>(p: Promise<T>, ms = CHECK_TIMEOUT_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([
    p.then(
      () => true,
      () => false,
    ),
    late,
  ]).finally(() => clearTimeout(timer));
}

export interface HealthDeps {
  db: Db;
  redis: ScriptedRedis;
  broker: Broker;
  lifecycle: Lifecycle;
}

export interface Readiness {
  ready: boolean;
  mysql: boolean;
  redis: boolean;
  rabbitmq: boolean;
  migrations: boolean;
  draining: boolean;
  /** The instance has finished warming up (http/warm-up.ts). */
  warm: boolean;
}

/**
 * Whether this instance may take traffic: MySQL, Redis and RabbitMQ answer, every migration is
 * applied, it has warmed up, and it is not draining. /readyz answers it; /metrics exports it (instance_ready).
 */
export function readinessCheck(d: HealthDeps): () => Promise<Readiness> {
  let migrated = false; // once every migration is in, it stays in
  return async () => {
    const [mysql, redis, migrations] = await Promise.all([
      within(ping(d.db)),
      within(d.redis.ping()),
      migrated ||
        within(
          pendingMigrations(d.db).then((p) => {
            if (p.length) throw new Error('pending');
            migrated = true;
          }),
        ),
    ]);
    const rabbitmq = d.broker.connected();
    const draining = d.lifecycle.isDraining;
    const warm = !d.lifecycle.isWarming;
    const ready = mysql && redis && rabbitmq && migrations && !draining && warm;
    return { ready, mysql, redis, rabbitmq, migrations, draining, warm };
  };
}

/** /livez: the process answers (a failing one is restarted). /readyz: see readinessCheck. */
export function healthRoutes(d: HealthDeps): Router {
  const r = new Router();
  const readiness = readinessCheck(d);
  r.get('/livez', (ctx) => {
    ctx.body = { ok: true };
  });
  r.get('/readyz', async (ctx) => {
    const body = await readiness();
    ctx.status = body.ready ? 200 : 503;
    ctx.body = body;
  });
  return r;
}
