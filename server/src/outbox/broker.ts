import amqp, { type AmqpConnectionManager, type ChannelWrapper } from 'amqp-connection-manager';
import type { Channel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import type { Logger } from 'pino';
import type { Messages, Topic } from './repo';

export interface ConsumerOptions {
  prefetch: number;
  attemptsMax: number;
  /** First retry delay; doubles with each attempt. */
  backoffMs: number;
}

export type Handler<T extends Topic> = (
  payload: Messages[T],
  meta: { messageId: string; attempt: number; topic: T },
) => Promise<void>;

const ATTEMPT_HEADER = 'x-showtix-attempt';

/**
 * classic: what existing deployments have (RabbitMQ refuses to redeclare a queue with another
 * type, so switching needs new queues: drain, delete, restart). quorum: replicated (Raft) queues
 * for a RabbitMQ cluster; their dead-lettering (retry -> main) is at-least-once.
 */
export type QueueType = 'classic' | 'quorum';

function queueArgs(type: QueueType): Record<string, unknown> {
  return type === 'quorum'
    ? { 'x-queue-type': 'quorum', 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' }
    : {};
}

/**
 * RabbitMQ through amqp-connection-manager (reconnects, re-declares topology, re-subscribes).
 * One durable topic exchange; each consumer has a durable queue, a retry queue whose messages
 * expire back into it (backoff), and a dead-letter queue once attempts run out. Publishes use
 * publisher confirms and fail after a timeout, so the outbox keeps what RabbitMQ did not take.
 */
export class Broker {
  readonly exchange: string;
  private readonly conn: AmqpConnectionManager;
  private readonly pub: ChannelWrapper;
  private readonly consumers: ChannelWrapper[] = [];

  /** queues: consumer name -> the topic it takes. All are declared when a publisher connects, so
   * a message published before any consumer ever ran still has a queue to wait in. */
  constructor(
    url: string,
    private readonly prefix: string,
    private readonly queues: Record<string, Topic>,
    private readonly log: Logger,
    private readonly queueType: QueueType = 'classic',
  ) {
    this.exchange = `${prefix}.events`;
    this.conn = amqp.connect([url], { heartbeatIntervalInSeconds: 5, reconnectTimeInSeconds: 1 });
    this.conn.on('disconnect', ({ err }) => log.warn({ err: err?.message }, 'RabbitMQ disconnected'));
    this.pub = this.conn.createChannel({
      confirm: true,
      publishTimeout: 3000,
      setup: (ch: ConfirmChannel) => this.declare(ch),
    });
    this.pub.on('error', (err) => log.warn({ err: err.message }, 'RabbitMQ publisher channel error'));
    this.conn.on('connectFailed', ({ err }) => log.warn({ err: err?.message }, 'RabbitMQ unreachable'));
  }

  /** The exchange, and for every consumer its queue (bound to its topic), retry and dead queues. */
  private async declare(ch: Channel): Promise<void> {
    await ch.assertExchange(this.exchange, 'topic', { durable: true });
    const args = queueArgs(this.queueType);
    for (const [name, topic] of Object.entries(this.queues)) {
      const queue = this.queueName(name);
      await ch.assertQueue(queue, { durable: true, arguments: args });
      await ch.assertQueue(`${queue}.retry`, {
        durable: true,
        deadLetterExchange: '',
        deadLetterRoutingKey: queue,
        arguments: args,
      });
      await ch.assertQueue(`${queue}.dead`, { durable: true, arguments: args });
      await ch.bindQueue(queue, this.exchange, topic);
    }
  }

  /** RabbitMQ answers (readiness): the connection manager holds a live connection. */
  connected(): boolean {
    return this.conn.isConnected();
  }

  queueName(name: string): string {
    return `${this.prefix}.${name}`;
  }

  async publish<T extends Topic>(topic: T, messageId: string, payload: Messages[T]): Promise<void> {
    await this.pub.publish(this.exchange, topic, Buffer.from(JSON.stringify(payload)), {
      persistent: true,
      messageId,
      contentType: 'application/json',
      headers: { [ATTEMPT_HEADER]: 0 },
    });
  }

  consume<T extends Topic>(name: string, handler: Handler<T>, o: ConsumerOptions): ChannelWrapper {
    const topic = this.queues[name] as T;
    if (!topic) throw new Error(`no queue "${name}" in the topology`);
    const queue = this.queueName(name);
    const retry = `${queue}.retry`;
    const dead = `${queue}.dead`;
    const wrapper = this.conn.createChannel({
      confirm: true,
      setup: async (ch: ConfirmChannel) => {
        await this.declare(ch);
        await ch.prefetch(o.prefetch);
        await ch.consume(queue, (m) => m && void this.handle(ch, m, topic, handler, o, retry, dead));
      },
    });
    wrapper.on('error', (err) =>
      this.log.warn({ err: err.message, queue }, 'RabbitMQ consumer channel error'),
    );
    this.consumers.push(wrapper);
    return wrapper;
  }

  private async handle<T extends Topic>(
    ch: Channel,
    m: ConsumeMessage,
    topic: T,
    handler: Handler<T>,
    o: ConsumerOptions,
    retry: string,
    dead: string,
  ): Promise<void> {
    const attempt = Number(m.properties.headers?.[ATTEMPT_HEADER] ?? 0);
    const messageId = String(m.properties.messageId ?? '');
    try {
      await handler(JSON.parse(m.content.toString()) as Messages[T], { messageId, attempt, topic });
      ch.ack(m);
    } catch (err) {
      const next = attempt + 1;
      const headers = { ...m.properties.headers, [ATTEMPT_HEADER]: next };
      const props = { persistent: true, messageId, contentType: 'application/json', headers };
      try {
        if (next >= o.attemptsMax) {
          this.log.error({ err, topic, messageId, attempt }, 'message dead-lettered after its last attempt');
          ch.sendToQueue(dead, m.content, props);
        } else {
          this.log.warn({ err, topic, messageId, attempt }, 'message handler failed; retrying later');
          ch.sendToQueue(retry, m.content, { ...props, expiration: String(o.backoffMs * 2 ** attempt) });
        }
        ch.ack(m);
      } catch (e) {
        // The channel died mid-way: leave the message unacked, RabbitMQ redelivers it.
        this.log.error({ err: e }, 'could not reroute a failed message');
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.consumers.map((c) => c.close()));
    await this.pub.close();
    await this.conn.close();
  }
}
