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
