import { execFileSync } from 'node:child_process';
import type { RowDataPacket } from 'mysql2/promise';
import { startJobs } from '../../src/server';
import type { Scheduler } from '../../src/jobs/scheduler';
import { createSession } from '../helpers/fixtures';
import { createPayEnv, prepaidOrders, type PayEnv } from '../helpers/pay-env';

/**
 * RabbitMQ stopped during a sale: payments still commit (their messages wait in the outbox),
 * nothing is lost, and the relay catches up when RabbitMQ is back.
 */
let p: PayEnv;
let jobs: Scheduler;
const rabbit = (cmd: 'stop_app' | 'start_app') => execFileSync('rabbitmqctl', [cmd], { stdio: 'ignore' });

beforeAll(async () => {
  p = await createPayEnv({ consumers: false, env: { JOBS_ENABLED: 'true', OUTBOX_INTERVAL_MS: '200' } });
  jobs = startJobs(p.deps); // relay, consumers and the rest, as a server runs them
});
afterAll(async () => {
  rabbit('start_app');
  await jobs.stop();
  await p.close();
});

it('pays during the outage, issues every ticket after it', async () => {
  const s = await createSession(p.deps, { seats: 10 });
  const orders = await prepaidOrders(p, s, 5, 'mq');
  rabbit('stop_app');
  try {
    for (const o of orders) p.sim.pay(o.payParams);
    const count = async (status: number) =>
      Number(
        (
          await p.deps.db.query<RowDataPacket[]>(
            'SELECT COUNT(*) n FROM orders WHERE session_id = ? AND status = ?',
            [s.sessionId, status],
          )
        )[0][0]!.n,
      );
    await p.until(async () => (await count(2)) === 5, 'all five paid while RabbitMQ is down');
    await p.until(
      async () => {
        const [rows] = await p.deps.db.query<RowDataPacket[]>(
          "SELECT MIN(attempts) a FROM outbox WHERE topic = 'order.paid' AND status = 0",
        );
        return Number(rows[0]!.a) >= 1;
      },
      'the relay to have tried and kept the messages',
      15_000,
    );
    expect(await count(3)).toBe(0);
  } finally {
    rabbit('start_app');
  }
  await p.until(
    async () => {
      const [rows] = await p.deps.db.query<RowDataPacket[]>(
        'SELECT COUNT(*) n FROM tickets WHERE session_id = ?',
        [s.sessionId],
      );
      return Number(rows[0]!.n) === 5;
    },
    'every ticket after RabbitMQ returns',
    30_000,
  );
  await p.until(
    async () => {
      const [rows] = await p.deps.db.query<RowDataPacket[]>('SELECT COUNT(*) n FROM outbox WHERE status = 0');
      return Number(rows[0]!.n) === 0;
    },
    'the outbox to drain',
    30_000,
  );
});
