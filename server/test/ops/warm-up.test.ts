import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import mysql from 'mysql2/promise';
import pino from 'pino';
import { migrateUp } from '../../src/db/migrate';
import { connectionOptions, dropDatabase } from '../../src/db/pool';
import { TokenService } from '../../src/http/auth';
import { readinessCheck } from '../../src/http/health';
import { warmUp } from '../../src/http/warm-up';
import { deleteTopology } from '../../src/outbox/topology';
import { startServer } from '../../src/server';
import { loadConfig } from '../../src/config';
import { deleteKeys, testConfig, withTestEnv } from '../helpers/env';
import { until } from '../helpers/until';

const WARM_UP_REQUESTS = 300;

/**
 * The keys under the test's own prefix. Redis is shared with the other test files running at the
 * same time, so its global command counts say nothing; a purchase that got past the route would
 * leave its hold, its rate-limit counters or its session's keys here.
 */
async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys.sort();
}

describe('the warm-up before an instance turns ready', () => {
  it('is off in development and test unless asked for, and refuses a negative count', () => {
    // Production's default (3,000): test/hardening/unsafe-config.test.ts.
    expect(testConfig().warmUpRequests).toBe(0);
    expect(loadConfig({ NODE_ENV: 'development' }).warmUpRequests).toBe(0);
    expect(testConfig({ WARM_UP_REQUESTS: '50' }).warmUpRequests).toBe(50);
    expect(() => loadConfig({ NODE_ENV: 'test', WARM_UP_REQUESTS: '-1' })).toThrow(/WARM_UP_REQUESTS/);
  });

  it('sends its own purchases, all refused 400 before the order service: nothing written, nothing counted', async () => {
    const config = testConfig({ PORT: '0', WARM_UP_REQUESTS: String(WARM_UP_REQUESTS) });
    await migrateUp(config.mysqlUrl);
    const redis = new Redis(config.redisUrl);
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    try {
      const running = await startServer(config, { log });
      try {
        const done = lines.find((l) => l.msg === 'warmed up');
        expect(done).toMatchObject({ answered: WARM_UP_REQUESTS });
        expect(done?.stopped).toBeUndefined();
        expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
        // No take script, no hold, no limit counted, no order.
        expect(await keysUnder(redis, config.redisKeyPrefix)).toEqual([]);
        const db = await mysql.createConnection(connectionOptions(config.mysqlUrl));
        try {
          const [rows] = await db.query('SELECT COUNT(*) AS n FROM orders');
          expect(Number((rows as { n: unknown }[])[0]!.n)).toBe(0);
        } finally {
          await db.end();
        }
        // The fans' metrics start after it: no 400s of the warm-up on the purchase route.
        const metrics = await running.deps.metrics.registry.metrics();
        expect(metrics).not.toMatch(/route="\/api\/v1\/orders"/);
        expect(metrics).not.toMatch(/VALIDATION_FAILED/);
        // Counting resumed: a fan's malformed purchase now counts.
        const r = await fetch(`${running.url}/api/v1/orders`, { method: 'POST', body: '{}' });
        expect(r.status).toBe(401);
        expect(await running.deps.metrics.registry.metrics()).toMatch(
          /route="\/api\/v1\/orders",status="401"/,
        );
      } finally {
        await running.close();
      }
    } finally {
      await redis.quit();
      await deleteTopology(config.amqpUrl, config.amqpPrefix);
      await deleteKeys(config.redisUrl, config.redisKeyPrefix);
      await dropDatabase(config.mysqlUrl);
    }
  });

  it('keeps the instance not ready while it runs, on its real MySQL, Redis and RabbitMQ', async () => {
    await withTestEnv(async ({ deps }) => {
      const check = readinessCheck(deps);
      // Everything else ready (RabbitMQ's connection may still be on its way): only warming differs.
      await until(async () => (await check()).ready, 'the instance ready');
      deps.lifecycle.warmingUp(true);
      expect(await check()).toEqual({
        ready: false,
        mysql: true,
        redis: true,
        rabbitmq: true,
        migrations: true,
        draining: false,
        warm: false,
      });
      deps.lifecycle.warmingUp(false);
      expect(await check()).toMatchObject({ ready: true, warm: true });
    });
  });

  describe('stops at the first answer that is not the expected 400', () => {
    let server: Server;
    let seen = 0;
    beforeAll(async () => {
      // A stand-in for a purchase route that (wrongly) sold: the warm-up must not go on buying.
      server = createServer((req, res) => {
        seen++;
        req.resume();
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"orderNo":"x"}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('and reports why', async () => {
      const tokens = new TokenService('t'.repeat(32), 3600);
      const r = await warmUp({ address: server.address() as AddressInfo, requests: 1_000, tokens });
      expect(r.answered).toBe(0);
      expect(r.stopped).toBe('answered 201');
      // At most one request per connection was in flight when the first 201 came back.
      expect(seen).toBeLessThanOrEqual(16);
    });
  });
});
