import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { RC } from '../redis/codes';
import type { ScriptedRedis } from '../redis/scripts';

/**
 * Leadership of the singleton jobs through a Redis lease (leaderLease-1.lua). The holder renews
 * it every third of the lease; when it dies, the lease expires and another instance takes it
 * within leaseMs plus one renewal period. The leader also counts the lease down locally from
 * the moment it asked, so a leader cut off from Redis stops leading before anyone else can start.
 * Two leaders can still overlap (a stalled process, a Redis failover losing the key): every job
 * stays safe to run twice; leadership only saves the duplicate work.
 */
export class Leadership {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private validUntil = 0;
  private timer?: NodeJS.Timeout;
  private beating?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly redis: ScriptedRedis,
    private readonly key: string,
    private readonly leaseMs: number,
    private readonly log: Logger,
  ) {}

  get isLeader(): boolean {
    return Date.now() < this.validUntil;
  }

  start(): void {
    this.stopped = false;
    this.loop();
  }

  private loop(): void {
    if (this.stopped) return;
    this.beating = this.beat().finally(() => {
      this.beating = undefined;
      if (!this.stopped) this.timer = setTimeout(() => this.loop(), Math.max(50, this.leaseMs / 3));
    });
  }

  private async beat(): Promise<void> {
    const asked = Date.now();
    const was = this.isLeader;
    try {
      const [code, other] = await this.redis.leaderLease(this.key, this.owner, this.leaseMs, 'hold');
      this.validUntil = code === RC.LEADING ? asked + this.leaseMs : 0;
      if (this.isLeader !== was)
        this.log.info({ owner: this.owner, leader: this.isLeader, other }, 'job leadership changed');
    } catch (err) {
      // Redis unreachable: keep leading only until the lease we last got runs out.
      this.log.warn({ err: (err as Error).message }, 'could not renew the job leader lease');
    }
  }

  /** Stops renewing; a leader gives the lease up so another instance takes over at once. */
  async stop(): Promise<void> {
    this.abandon();
    await this.beating;
    if (this.validUntil > 0) {
      this.validUntil = 0;
      await this.redis.leaderLease(this.key, this.owner, this.leaseMs, 'release').catch(() => undefined);
    }
  }

  /** Stops renewing without giving the lease up: what a killed process does (tests use it). */
  abandon(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
