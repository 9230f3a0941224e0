import amqp from 'amqplib';
import type { Topic } from './repo';

/** Each consumer's queue and the topic it takes: the RabbitMQ topology, declared in one place. */
export const QUEUES = {
  tickets: 'order.paid',
  'late-payments': 'payment.late',
  refunds: 'refund.requested',
  inventory: 'inventory.release',
  notices: 'notice.send',
} as const satisfies Record<string, Topic>;

export const CONSUMERS = Object.keys(QUEUES) as (keyof typeof QUEUES)[];

/**
 * Deletes what a run with this prefix declared: the exchange and every consumer's main, retry and
 * dead queue (the Broker's names). Test runs and throw-away stacks call it when they finish, so
 * their queues do not pile up in the shared broker. Quiet when RabbitMQ is down or nothing was declared.
 */
export async function deleteTopology(url: string, prefix: string): Promise<void> {
  let conn: amqp.ChannelModel | undefined;
  try {
    conn = await amqp.connect(url);
    const ch = await conn.createChannel();
    for (const name of CONSUMERS) {
      for (const q of [`${prefix}.${name}`, `${prefix}.${name}.retry`, `${prefix}.${name}.dead`])
        await ch.deleteQueue(q);
    }
    await ch.deleteExchange(`${prefix}.events`);
    await ch.close();
  } catch {
    // broker down or nothing declared: nothing to clean
  } finally {
    await conn?.close().catch(() => undefined);
  }
}
