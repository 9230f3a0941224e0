import type { RowDataPacket } from 'mysql2/promise';
import { redriveDeadLetters } from '../src/jobs/dead-letters';
import { recoveryMetrics } from '../src/jobs/metrics';
import { createTestEnv, type TestEnv } from './helpers/env';
import { until } from './helpers/until';

/**
 * Dead letters are re-driven with bounded retries and a metric, then parked for an operator.
 * A real RabbitMQ (this file's own queues); the handler fails on purpose.
 */
let env: TestEnv;
const failing = new Set<string>();
const handled: string[] = [];

beforeAll(async () => {
  env = await createTestEnv({ CONSUMER_ATTEMPTS_MAX: '2', CONSUMER_BACKOFF_MS: '20' });
  env.deps.broker.consume<'notice.send'>(
    'notices',
    async (_m, meta) => {
      if (failing.has(meta.messageId)) throw new Error(`boom ${meta.messageId}`);
      handled.push(meta.messageId);
    },
    { prefetch: 5, attemptsMax: 2, backoffMs: 20 },
  );
});
afterAll(() => env.close());

const deadNotices = async () => (await env.deps.broker.deadCounts()).notices;
const metric = async (name: string) =>
  (await env.deps.metrics.registry.getSingleMetricAsString(name)).match(/queue="notices"} (\d+)/)?.[1];
const publish = (id: string) =>
  env.deps.broker.publish('notice.send', id, { userId: '1', template: 'ticketed', orderId: '1' });

it('re-drives a dead letter; once the cause is gone the message is handled', async () => {
  const metrics = recoveryMetrics(env.deps.metrics.registry);
  failing.add('m-heal');
  await publish('m-heal');
  await until(async () => (await deadNotices()) === 1, 'dead-lettered');
  failing.delete('m-heal');
  // not yet: a dead letter waits before its first re-drive
  expect(await redriveDeadLetters(env.deps, metrics, Date.now(), { minAgeMs: 60_000 })).toEqual({
    redriven: 0,
    parked: 0,
  });
  expect(await redriveDeadLetters(env.deps, metrics, Date.now() + 61_000)).toEqual({
    redriven: 1,
    parked: 0,
  });
  await until(async () => handled.includes('m-heal'), 'handled');
  expect(await deadNotices()).toBe(0);
  expect(await metric('dead_letters_redriven_total')).toBe('1');
});

it('gives up after the bounded re-drives: parked in MySQL with its error, the queue left empty', async () => {
  const metrics = recoveryMetrics(env.deps.metrics.registry);
  failing.add('m-poison');
  await publish('m-poison');
  for (let run = 0; run < 2; run++) {
    await until(async () => (await deadNotices()) === 1, `dead-lettered (${run})`);
    expect(await redriveDeadLetters(env.deps, metrics, Date.now(), { maxRedrives: 1, minAgeMs: 0 })).toEqual(
      run === 0 ? { redriven: 1, parked: 0 } : { redriven: 0, parked: 1 },
    );
  }
  expect(await deadNotices()).toBe(0);
  const [rows] = await env.deps.db.query<RowDataPacket[]>(
    'SELECT queue, message_id, error, redrives, state FROM dead_letters',
  );
  expect(rows).toEqual([
    { queue: 'notices', message_id: 'm-poison', error: 'boom m-poison', redrives: 1, state: 'parked' },
  ]);
  expect(await metric('dead_letters_parked_total')).toBe('1');
  expect(await metric('dead_letters')).toBe('0');
});
