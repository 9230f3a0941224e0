import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { ScriptedRedis } from '../redis/scripts';

/**
 * What an admin edit can make stale on every instance: a session's catalog, the blocklist, or
 * the degradation switches; and what a release makes stale: the purchase refusals known for a
 * session (orders/refusals.ts).
 */
export type CacheKind = 'session' | 'blocklist' | 'refusals' | 'degrade';

/** Handlers get the id that changed, or ALL when everything of that kind must be dropped. */
export const ALL = '*';

interface Message {
  o: string;
  k: CacheKind;
  id: string;
}

/**
 * Cache invalidation that reaches every instance: the editing instance drops its own copy at
 * once and publishes on a Redis channel; every other instance drops its copy when the message
 * arrives (milliseconds). Pub/sub delivers at most once, so a subscriber that lost its
 * connection drops everything when it is back, and every cache keeps its short TTL as the
 * last line of defence.
 */
export class CacheInvalidation {
  private readonly origin = randomUUID();
  private readonly handlers = new Map<CacheKind, ((id: string) => void)[]>();
  private sub?: ReturnType<ScriptedRedis['duplicate']>;

  constructor(
    private readonly redis: ScriptedRedis,
    private readonly channel: string,
    private readonly log: Logger,
  ) {}

  on(kind: CacheKind, fn: (id: string) => void): void {
    this.handlers.set(kind, [...(this.handlers.get(kind) ?? []), fn]);
  }

  async start(): Promise<void> {
    const sub = this.redis.duplicate();
    this.sub = sub;
    sub.on('error', (err: Error) =>
      this.log.warn({ err: err.message }, 'cache invalidation subscriber error'),
    );
    sub.on('message', (_channel: string, raw: string) => this.receive(raw));
    await sub.subscribe(this.channel);
    // Messages published while the subscriber was away are lost: after a reconnect drop it all.
    sub.on('ready', () => {
      for (const kind of this.handlers.keys()) this.apply(kind, ALL);
    });
  }

  /** Drops the entry here and on every other instance. */
  invalidate(kind: CacheKind, id: string): void {
    this.apply(kind, id);
    const msg: Message = { o: this.origin, k: kind, id };
    this.redis.publish(this.channel, JSON.stringify(msg)).catch((err: Error) => {
      // Redis is down: other instances' copies age out by TTL (and are dropped on reconnect).
      this.log.warn({ err: err.message, kind, id }, 'could not publish a cache invalidation');
    });
  }

  private receive(raw: string): void {
    let m: Message;
    try {
      m = JSON.parse(raw) as Message;
    } catch {
      return;
    }
    if (m.o === this.origin || !this.handlers.has(m.k) || typeof m.id !== 'string') return;
    this.apply(m.k, m.id);
  }

  private apply(kind: CacheKind, id: string): void {
    for (const fn of this.handlers.get(kind) ?? []) fn(id);
  }

  async close(): Promise<void> {
    await this.sub?.quit().catch(() => undefined);
  }
}
