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
/** How many times a dead letter was sent back to its queue, when it died, and why. */
const REDRIVE_HEADER = 'x-showtix-redrives';
const DEAD_AT_HEADER = 'x-showtix-dead-at';
const ERROR_HEADER = 'x-showtix-error';

/** A message that failed every attempt and every re-drive, handed over for an operator. */
export interface DeadLetter {
  /** The consumer's name (tickets, refunds, ...). */
  queue: string;
  messageId: string;
  payload: string;
  error: string | null;
  redrives: number;
}

export interface RedriveOptions {
  /** Re-drives per message; after that it is parked. */
  maxRedrives: number;
  /** A dead letter waits this long × 2^redrives before it is sent back. */
  minAgeMs: number;
  /** Plumbing time (like the outbox's backoff), not business time. */
  nowMs: number;
  /** Takes a message out of RabbitMQ for good (it is acknowledged only after park resolves). */
  park: (m: DeadLetter) => Promise<void>;
  /** Messages looked at per queue and run. */
  limit?: number;
}

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
          const why = String((err as Error)?.message ?? err).slice(0, 300);
          ch.sendToQueue(dead, m.content, {
            ...props,
            headers: { ...headers, [DEAD_AT_HEADER]: Date.now(), [ERROR_HEADER]: why },
          });
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

  /** A short-lived channel of its own (get/ack of dead letters); fails while RabbitMQ is down. */
  private async withChannel<T>(fn: (ch: ConfirmChannel) => Promise<T>): Promise<T> {
    const c = this.conn.connection;
    if (!c) throw new Error('RabbitMQ is not connected');
    const ch = await c.createConfirmChannel();
    try {
      return await fn(ch);
    } finally {
      // Messages taken and not acknowledged go back to their queue with the channel.
      await ch.close().catch(() => undefined);
    }
  }

  /** Messages waiting in each consumer's dead-letter queue. */
  async deadCounts(): Promise<Record<string, number>> {
    return this.withChannel(async (ch) => {
      const out: Record<string, number> = {};
      for (const name of Object.keys(this.queues))
        out[name] = (await ch.checkQueue(`${this.queueName(name)}.dead`)).messageCount;
      return out;
    });
  }

  /**
   * Dead letters go back to their queue with a fresh attempt count, each after waiting
   * minAgeMs × 2^redrives, at most maxRedrives times; then they are parked (handed to `park`,
   * acknowledged once it resolved). Handlers are idempotent, so a re-driven message that had in
   * fact succeeded changes nothing. Returns the counts per consumer.
   */
  async redriveDead(
    o: RedriveOptions,
  ): Promise<{ redriven: Record<string, number>; parked: Record<string, number> }> {
    const redriven: Record<string, number> = {};
    const parked: Record<string, number> = {};
    await this.withChannel(async (ch) => {
      for (const name of Object.keys(this.queues)) {
        const queue = this.queueName(name);
        for (let i = 0; i < (o.limit ?? 100); i++) {
          const m = await ch.get(`${queue}.dead`, { noAck: false });
          if (!m) break;
          const h = m.properties.headers ?? {};
          const redrives = Number(h[REDRIVE_HEADER] ?? 0);
          if (o.nowMs - Number(h[DEAD_AT_HEADER] ?? 0) < o.minAgeMs * 2 ** redrives) {
            ch.nack(m, false, true); // not yet: the queue is in order of death, look again next run
            break;
          }
          const messageId = String(m.properties.messageId ?? '');
          if (redrives >= o.maxRedrives) {
            const error = h[ERROR_HEADER] === undefined ? null : String(h[ERROR_HEADER]);
            await o.park({ queue: name, messageId, payload: m.content.toString(), error, redrives });
            parked[name] = (parked[name] ?? 0) + 1;
          } else {
            ch.sendToQueue(queue, m.content, {
              persistent: true,
              messageId,
              contentType: 'application/json',
              headers: { ...h, [ATTEMPT_HEADER]: 0, [REDRIVE_HEADER]: redrives + 1 },
            });
            await ch.waitForConfirms();
            redriven[name] = (redriven[name] ?? 0) + 1;
          }
          ch.ack(m);
        }
      }
    });
    return { redriven, parked };
  }

  /** Sends a parked message back to its consumer's queue (an operator's repair). */
  async requeue(name: string, messageId: string, payload: string): Promise<void> {
    if (!this.queues[name]) throw new Error(`no queue "${name}" in the topology`);
    await this.withChannel(async (ch) => {
      ch.sendToQueue(this.queueName(name), Buffer.from(payload), {
        persistent: true,
        messageId,
        contentType: 'application/json',
        headers: { [ATTEMPT_HEADER]: 0, [REDRIVE_HEADER]: 0 },
      });
      await ch.waitForConfirms();
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.consumers.map((c) => c.close()));
    await this.pub.close();
    await this.conn.close();
  }
}
