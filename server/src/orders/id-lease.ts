import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import { releaseNode, renewNode, takeExpiredNode } from './id-lease-repo';
import type { NodeSource } from './ids';

export interface LeaseOptions {
  /** How long a lease lasts without a heartbeat (an instance that died frees its node then). */
  leaseMs: number;
  /** How often the holder renews it. */
  renewMs: number;
}

export const LEASE_DEFAULTS: LeaseOptions = { leaseMs: 60_000, renewMs: 10_000 };

/** Real elapsed time, not the app's clock (which tests move by hand): a lease runs out in real time. */
const monotonic = (): number => performance.now();

interface Held {
  node: number;
  floorMs: number;
  /** Monotonic time after which this instance stops trusting the lease (before MySQL expires it). */
  validUntil: number;
}

/**
 * The order-id generator's node number, leased in MySQL (table id_nodes). Two live instances
 * never share a node: a node is taken only by a conditional UPDATE of a row whose lease has
 * expired by MySQL's own clock, and a holder stops issuing ids before that moment (it measures
 * from before its last renewal was sent, with a margin). Redis plays no part, so a Redis loss
 * or any number of restarts cannot hand out a node twice; an instance that dies frees its node
 * after leaseMs, and when all 1024 are held the next instance refuses to start.
 */
export class IdNodeLease implements NodeSource {
  private held: Held | undefined;
  private readonly holder = randomBytes(16).toString('hex');
  private timer: NodeJS.Timeout | undefined;
  private renewing: Promise<void> | undefined;
  private highestMs: () => number = () => 0;
  private stopped = false;

  private constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly opts: LeaseOptions,
  ) {}

  /** Takes a free node (or throws) and keeps it renewed until stop(). */
  static async start(db: Db, log: Logger, opts: LeaseOptions = LEASE_DEFAULTS): Promise<IdNodeLease> {
    const lease = new IdNodeLease(db, log, opts);
    await lease.take();
    lease.timer = setInterval(() => void lease.renew(), opts.renewMs);
    lease.timer.unref();
    return lease;
  }

  /** The generator whose highest millisecond each renewal records for the node's next holder. */
  track(ids: { highestMs: number }): void {
    this.highestMs = () => ids.highestMs;
  }

  current(): { node: number; floorMs: number } | undefined {
    const h = this.held;
    if (h && monotonic() < h.validUntil) return h;
    // Lapsed (MySQL was out of reach, or the node was lost): try now rather than at the next beat.
    if (!this.stopped) void this.renew();
    return undefined;
  }

  /** Extends the lease; if another instance took the node meanwhile, takes a free one instead. */
  renew(): Promise<void> {
    this.renewing ??= this.renewOnce().finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  /** Gives the node back (clean shutdown), recording the last millisecond used. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.renewing;
    const h = this.held;
    this.held = undefined;
    if (!h) return;
    await releaseNode(this.db, h.node, this.holder, this.highestMs());
  }

  private async renewOnce(): Promise<void> {
    try {
      const h = this.held;
      const sent = monotonic();
      if (h) {
        if (await renewNode(this.db, h.node, this.holder, this.opts.leaseMs, this.highestMs())) {
          h.validUntil = this.validFrom(sent);
          return;
        }
        // Paused past the lease (GC, a frozen VM) and another instance took the node.
        this.log.error({ node: h.node }, 'order-id node lease lost; taking another node');
        this.held = undefined;
      }
      await this.take();
    } catch (err) {
      // MySQL out of reach: the lease runs out on its own and ids stop until a renewal works.
      this.log.warn({ err }, 'order-id node lease not renewed');
    }
  }

  /** Takes the node whose lease expired longest ago (never-used nodes first). */
  private async take(): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const sent = monotonic();
      const taken = await takeExpiredNode(this.db, this.holder, this.opts.leaseMs);
      if (!taken) continue;
      const { node } = taken;
      // The old holder may have used milliseconds up to a lease past its last report.
      this.held = {
        node,
        floorMs: taken.lastMs + this.opts.leaseMs,
        validUntil: this.validFrom(sent),
      };
      this.log.info({ node }, 'order-id node leased');
      return;
    }
    throw new Error('no free order-id node: all 1024 are leased by running instances');
  }

  private validFrom(sent: number): number {
    return sent + this.opts.leaseMs - Math.ceil(this.opts.leaseMs / 10);
  }
}
