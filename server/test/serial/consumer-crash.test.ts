import { spawn, execSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { RowDataPacket } from 'mysql2/promise';
import type { Config } from '../../src/config';
import { createSession } from '../helpers/fixtures';
import { createPayEnv, type PayEnv } from '../helpers/pay-env';

/**
 * kill -9 of the worker between "paid" and "ticketed": after a restart every paid order has
 * exactly one set of tickets. The worker is a real server process (ROLE=worker) consuming the
 * real RabbitMQ queue; the kill lands while it is issuing tickets for a burst of payments.
 */
const root = path.resolve(__dirname, '../..');
let p: PayEnv;
const workers: ChildProcess[] = [];

function workerEnv(c: Config, simUrl: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    ROLE: 'worker',
    LOG_LEVEL: 'warn',
    MYSQL_URL: c.mysqlUrl,
    REDIS_URL: c.redisUrl,
    REDIS_KEY_PREFIX: c.redisKeyPrefix,
    AMQP_PREFIX: c.amqpPrefix,
    WECHAT_API_BASE: simUrl,
    WECHAT_PAY_API_BASE: simUrl,
    PUBLIC_BASE_URL: c.wechat.publicBaseUrl,
    OUTBOX_INTERVAL_MS: '100',
  };
}

function startWorker(env: NodeJS.ProcessEnv): ChildProcess {
  const c = spawn(process.execPath, [path.join(root, 'dist/main.js')], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  workers.push(c);
  return c;
}

const stop = (c: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    c.once('exit', () => resolve());
    c.kill(signal);
  });

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dist/main.js')))
    execSync('npm run build', { cwd: root, stdio: 'inherit' });
  p = await createPayEnv({ consumers: false });
});
afterAll(async () => {
  await Promise.all(workers.map((w) => stop(w, 'SIGKILL')));
  await p.close();
});

it('exactly one set of tickets per paid order after the worker is killed mid-issue and restarted', async () => {
  const s = await createSession(p.deps, { seats: 200 });
  const orders: string[] = [];
  for (let i = 0; i < 60; i++) {
    const o = await p.orderAndPrepay(`openid-crash-${i}`, {
      sessionId: s.sessionId,
      seatIds: s.seatIds.slice(i * 3, i * 3 + 3),
    });
    p.sim.pay(o.payParams);
    orders.push(o.orderNo);
  }
  const count = async (sql: string) =>
    Number((await p.deps.db.query<RowDataPacket[]>(sql, [s.sessionId]))[0][0]!.n);
  await p.until(
    async () => (await count('SELECT COUNT(*) n FROM orders WHERE session_id = ? AND status = 2')) === 60,
    'all paid',
  );

  // The last order's row is held, so the ticket transaction that takes it waits on its lock and
  // the kill lands mid-issue whatever the batch size: polling for the first tickets alone once
  // found all 60 orders ticketed (the consumer takes up to 50 at once, two batches in flight).
  const holder = await p.deps.db.getConnection();
  await holder.query('START TRANSACTION');
  await holder.query('SELECT id FROM orders WHERE order_no = ? FOR UPDATE', [orders[59]]);

  const env = workerEnv(p.config, p.sim.url);
  const first = startWorker(env);
  try {
    await p.until(
      async () => (await count('SELECT COUNT(*) n FROM tickets WHERE session_id = ?')) > 0,
      'the worker to start issuing',
      30_000,
    );
    await stop(first, 'SIGKILL');
  } finally {
    await holder.query('ROLLBACK');
    holder.release();
  }
  const issuedBeforeKill = await count('SELECT COUNT(*) n FROM orders WHERE session_id = ? AND status = 3');

  const second = startWorker(env);
  await p.until(
    async () => (await count('SELECT COUNT(*) n FROM orders WHERE session_id = ? AND status = 3')) === 60,
    'every order ticketed',
    30_000,
  );
  await stop(second, 'SIGTERM');
  expect(issuedBeforeKill).toBeLessThan(60); // the kill did land mid-way
  expect(await count('SELECT COUNT(*) n FROM tickets WHERE session_id = ?')).toBe(180);
  expect(
    await count(
      'SELECT COUNT(*) n FROM (SELECT order_item_id FROM tickets WHERE session_id = ? GROUP BY order_item_id HAVING COUNT(*) > 1) d',
    ),
  ).toBe(0);
  const sold = await p.deps.inventory.states(s.sessionId, [], Date.now());
  expect(sold.sold).toHaveLength(180);
});
