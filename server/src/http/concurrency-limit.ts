/**
 * How many requests one instance works on at once, adapted to the latency they get (AIMD, the
 * rule of TCP's congestion window and of Netflix's concurrency-limits): after a sample window in
 * which more than one admitted request in ten took longer than the target, the limit shrinks by
 * a fifth; after a window within the target, it grows by a twentieth (at least one), back up to
 * the configured bound.
 *
 * Why: on one event loop the admitted requests share the CPU, Redis and the group commit, so by
 * Little's law each takes about (requests in flight) / (throughput). A fixed bound is right for
 * one machine's throughput only (256 in flight at ~1,100 purchases/s is ~230 ms each); the limit
 * that keeps them within the target is throughput × target, which this finds by itself whatever
 * the machine, its neighbours or the mix of requests.
 *
 * Invariant: min ≤ limit ≤ max at every moment; the limit changes only on at least
 * AIMD.minSamples answers: it falls when more than AIMD.slowShare of them were over the target,
 * rises otherwise. It only decides who is refused before anything runs: it never touches a
 * request already admitted.
 */
export interface AdaptiveLimitOptions {
  /** The bound the limit starts at and never exceeds (SHED_INFLIGHT_MAX). */
  max: number;
  /** Admitted requests should be answered within this (ms). */
  targetMs: number;
}

/** The rule's constants (one decision per sample window of the shedder, 100 ms). */
const AIMD = {
  /**
   * Never below this many in flight: the purchase path overlaps the loop, Redis and MySQL's
   * group commit, and fewer requests at once would leave them idle (throughput falls, not latency).
   */
  minLimit: 8,
  /** A decision needs this many answers; a window with fewer leaves them to the next. */
  minSamples: 10,
  /** More than this share of the answers over the target shrinks the limit (its p90 is over). */
  slowShare: 0.1,
  decrease: 0.8,
  increase: 0.05,
} as const;

export class AdaptiveLimit {
  private value: number;
  private readonly min: number;
  private answered = 0;
  private slow = 0;

  constructor(private readonly o: AdaptiveLimitOptions) {
    this.value = o.max;
    this.min = Math.min(AIMD.minLimit, o.max);
  }

  get limit(): number {
    return this.value;
  }

  /** One admitted request's time from its admission until its response left (ms). */
  record(ms: number): void {
    this.answered++;
    if (ms > this.o.targetMs) this.slow++;
  }

  /**
   * The end of a sample window: shrink after a slow one, grow after one within the target. Until
   * AIMD.minSamples answers came, they are kept for the next window (a quiet window tells nothing, and
   * a few slow answers may be slow requests, not a saturated instance).
   */
  update(): void {
    if (this.answered < AIMD.minSamples) return;
    if (this.slow > this.answered * AIMD.slowShare)
      this.value = Math.max(this.min, Math.floor(this.value * AIMD.decrease));
    else this.value = Math.min(this.o.max, this.value + Math.max(1, Math.floor(this.value * AIMD.increase)));
    this.answered = 0;
    this.slow = 0;
  }
}
