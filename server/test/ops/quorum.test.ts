import { randomBytes } from 'node:crypto';
import amqp from 'amqplib';
import pino from 'pino';
import { Broker } from '../../src/outbox/broker';

const URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const prefix = `tk_test_q_${process.pid}_${randomBytes(4).toString('hex')}`;
const queue = `${prefix}.tickets`;
let broker: Broker;

async function until(cond: () => boolean | Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('not reached');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function withChannel<T>(fn: (ch: amqp.Channel) => Promise<T>): Promise<T> {
  const conn = await amqp.connect(URL);
  try {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined); // a refused declaration closes the channel: that is the point
    return await fn(ch);
  } finally {
    await conn.close().catch(() => undefined);
  }
}

beforeAll(() => {
  broker = new Broker(URL, prefix, { tickets: 'order.paid' }, pino({ level: 'silent' }), 'quorum');
});
afterAll(async () => {
  await broker.close();
  await withChannel(async (ch) => {
    for (const q of [queue, `${queue}.retry`, `${queue}.dead`]) await ch.deleteQueue(q);
    await ch.deleteExchange(`${prefix}.events`);
  });
});

describe('RabbitMQ quorum queues (AMQP_QUEUE_TYPE=quorum)', () => {
  it('retries through the retry queue, dead-letters after the last attempt, with publisher confirms', async () => {
    const seen: string[] = [];
    broker.consume<'order.paid'>(
      'tickets',
      async (m, meta) => {
        seen.push(`${m.orderId}#${meta.attempt}`);
        if (m.orderId === 'poison' || meta.attempt === 0) throw new Error('not yet');
      },
      { prefetch: 5, attemptsMax: 3, backoffMs: 100 },
    );
    await broker.publish('order.paid', 'm1', { orderId: 'ok' }); // resolves once RabbitMQ confirmed it
    await broker.publish('order.paid', 'm2', { orderId: 'poison' });
    await until(() => seen.includes('ok#1') && seen.includes('poison#2'));
    const dead = await withChannel((ch) => ch.checkQueue(`${queue}.dead`));
    expect(dead.messageCount).toBe(1);
    expect(seen.filter((s) => s.startsWith('ok'))).toEqual(['ok#0', 'ok#1']);
  });

  it('the queues really are quorum queues: redeclaring one as classic is refused', async () => {
    const classic = {
      'x-queue-type': 'classic',
      'x-dead-letter-strategy': 'at-least-once',
      'x-overflow': 'reject-publish',
    };
    await expect(
      withChannel((ch) => ch.assertQueue(queue, { durable: true, arguments: classic })),
    ).rejects.toThrow(/PRECONDITION_FAILED.*x-queue-type/);
  });
});
