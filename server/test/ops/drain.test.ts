import { Writable } from 'node:stream';
import mysql from 'mysql2/promise';
import pino from 'pino';
import { migrateUp } from '../../src/db/migrate';
import { connectionOptions, dropDatabase } from '../../src/db/pool';
import { requestIdMixin } from '../../src/http/request-id';
import { startServer, type RunningServer } from '../../src/server';
import { deleteTopology } from '../../src/outbox/topology';
import { deleteKeys, testConfig } from '../helpers/env';
import { until } from '../helpers/until';

/** The real server (startServer, as main.ts runs it) with its log lines kept for inspection. */
async function start(drainMs: number) {
  const config = testConfig({ PORT: '0', SHUTDOWN_DRAIN_MS: String(drainMs) });
  await migrateUp(config.mysqlUrl);
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  const log = pino({ level: 'debug', mixin: requestIdMixin }, sink);
  const running = await startServer(config, { log });
  return { config, running, lines };
}

async function cleanUp(config: ReturnType<typeof testConfig>) {
  await deleteTopology(config.amqpUrl, config.amqpPrefix);
  await deleteKeys(config.redisUrl, config.redisKeyPrefix);
  await dropDatabase(config.mysqlUrl);
}

/** A condition on the running server, polled every 10 ms for up to 5 s. */
const reached = (cond: () => boolean, what: string) => until(async () => cond(), what, 5_000, 10);

describe('graceful shutdown', () => {
  let s: Awaited<ReturnType<typeof start>>;
  let running: RunningServer;
  beforeAll(async () => {
    s = await start(8_000);
    running = s.running;
  });
  afterAll(() => cleanUp(s.config));

  it('answers /livez and /readyz, echoes a sane X-Request-Id and logs with it', async () => {
    expect((await fetch(`${running.url}/livez`)).status).toBe(200);
    // startServer returns once it listens; RabbitMQ's connection may still be on its way, and
    // /readyz says 503 until it is: a balancer polls, and so does this test (on a busy machine
    // the first answer was 503 once in a full run, 2026-12-03).
    const ready = await until(async () => {
      const r = await fetch(`${running.url}/readyz`);
      return r.status === 200 && r;
    }, '/readyz answering 200');
    expect(await ready.json()).toEqual({
      ready: true,
      mysql: true,
      redis: true,
      rabbitmq: true,
      migrations: true,
      draining: false,
      warm: true,
    });
    const own = await fetch(`${running.url}/api/v1/shows`, { headers: { 'x-request-id': 'nginx-0af3c2d1' } });
    expect(own.headers.get('x-request-id')).toBe('nginx-0af3c2d1');
    expect(s.lines).toContainEqual(
      expect.objectContaining({ reqId: 'nginx-0af3c2d1', path: '/api/v1/shows' }),
    );
    // Not sane (too short, or characters that have no place in a log line): a fresh id instead.
    for (const bad of ['x', 'a b c d e f g h', '<script>alert(1)</script>']) {
      const r = await fetch(`${running.url}/api/v1/nope`, { headers: { 'x-request-id': bad } });
      expect(r.status).toBe(404);
      expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('lets requests in flight finish, refuses new ones, then closes', async () => {
    // Hold the shows table so five list requests are really in flight when shutdown begins.
    const blocker = await mysql.createConnection(connectionOptions(s.config.mysqlUrl));
    await blocker.query('LOCK TABLES shows WRITE');
    const inFlight = Array.from({ length: 5 }, () =>
      fetch(`${running.url}/api/v1/shows`).then(
        async (r) => ({ status: r.status, body: (await r.json()) as { items?: unknown[]; error?: string } }),
        (err: Error) => ({ status: 0, body: { items: undefined, error: err.message } }),
      ),
    );
    await reached(() => running.deps.lifecycle.inFlight === 5, 'five requests in flight');

    const closing = running.close();
    expect(running.deps.lifecycle.isDraining).toBe(true);
    // A new connection is refused: the listener is closed.
    await expect(fetch(`${running.url}/livez`)).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 300));
    expect(running.deps.lifecycle.inFlight).toBe(5); // still waiting for them, not cut

    await blocker.query('UNLOCK TABLES');
    await blocker.end();
    const answers = await Promise.all(inFlight);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    for (const a of answers) expect(Array.isArray(a.body.items)).toBe(true);
    await closing;
  });
});

describe('shutdown drain limit', () => {
  it('cuts what is still running once SHUTDOWN_DRAIN_MS has passed', async () => {
    const s = await start(300);
    const blocker = await mysql.createConnection(connectionOptions(s.config.mysqlUrl));
    try {
      await blocker.query('LOCK TABLES shows WRITE');
      const stuck = fetch(`${s.running.url}/api/v1/shows`).then(
        (r) => r.status,
        () => 'cut',
      );
      await reached(() => s.running.deps.lifecycle.inFlight === 1, 'one request in flight');
      const t0 = Date.now();
      const closing = s.running.close();
      expect(await stuck).toBe('cut');
      expect(Date.now() - t0).toBeLessThan(3_000);
      // (its query still waits on MySQL; the pools close once it returns)
      await blocker.query('UNLOCK TABLES');
      await closing;
      expect(s.lines).toContainEqual(
        expect.objectContaining({ msg: 'shutdown drain limit reached; cutting the requests still running' }),
      );
    } finally {
      await blocker.query('UNLOCK TABLES').catch(() => undefined);
      await blocker.end();
      await cleanUp(s.config);
    }
  });
});
