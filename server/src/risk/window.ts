import { LRUCache } from 'lru-cache';

/**
 * Keys come from requests (a device id is whatever the client sends), so the counters are a
 * bounded LRU: a flood of made-up keys evicts the least recent counters instead of growing
 * memory. The per-account and per-address dimensions still hold for that flood.
 */
const KEYS_MAX = 200_000;

/**
 * A per-instance fixed-window counter, for the limits PathLimiter keeps in memory.
 * rate-limiter-flexible's own memory store keeps a timer per key, which with a few hundred
 * thousand fans polling costs more than the poll itself; here expired windows are swept in one
 * pass per window instead.
 */
export class WindowCounter {
  private counts: LRUCache<string, { n: number; endsAt: number }>;
  private sweptAt = 0;

  constructor(
    readonly points: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    keysMax = KEYS_MAX,
  ) {
    this.counts = new LRUCache({ max: keysMax });
  }

  /**
   * Counts one request of the key: 0 when it is within its points, else the milliseconds until
   * its window ends. No promise and no result object: the hot paths' limits (risk/limits.ts).
   */
  take(key: string): number {
    const now = this.now();
    const w = this.count(key, now);
    return w.n > this.points ? w.endsAt - now : 0;
  }

  /** Counts one more for the key in its current window (a new one when it ended). */
  private count(key: string, now: number): { n: number; endsAt: number } {
    if (now - this.sweptAt >= this.windowMs) this.sweep(now);
    let w = this.counts.get(key);
    if (!w || w.endsAt <= now) {
      w = { n: 0, endsAt: now + this.windowMs };
      this.counts.set(key, w);
    }
    w.n++;
    return w;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.counts.entries()) if (w.endsAt <= now) this.counts.delete(key);
    this.sweptAt = now;
  }
}
