import { z } from 'zod';

const int = (def: number) => z.coerce.number().int().nonnegative().default(def);

/**
 * Overload protection: early refusal of a saturated instance (shedding) and the circuit
 * breakers around WeChat Pay calls. Units are in the names; 0 turns a bound off.
 */
const Env = z.object({
  SHED_EVENT_LOOP_LAG_MS: int(150),
  // About 25 ms of work in flight: one instance serves 4,000-5,800 purchases/s (issue 14's
  // overload runs, 2026-12-05), and by Little's law each admitted request waits about (in flight)
  // / (throughput). With its own core and an even offer of 7,000/s, 256 in flight gave a loop
  // delay of 65 ms and a p99 past 100 ms on the server's own histogram; 128 gave 32 ms and a p99
  // within 100 (64: 19 ms, within 50, but fewer admitted). The benches' closed loops (100
  // connections) stay under it. The earlier 1,000, then 256, let admitted requests wait seconds.
  SHED_INFLIGHT_MAX: int(128),
  // The bound while overloaded: for a hold from each refusal over the bound above (LoadShedder
  // .inflightLimit says why and what was measured). 0: the bound above throughout.
  SHED_INFLIGHT_MAX_OVERLOADED: int(64),
  SHED_OVERLOAD_HOLD_MS: int(1_000),
  // Optional: below the bound above, follow the latency admitted requests get, so that 9 in 10
  // of them are answered within this (by Little's law: throughput x this many in flight). Off
  // (0) by default: a purchase's own floor is MySQL's group commit, not the requests in flight,
  // and on this project's 2-core machine a target of 50 shrank the bound to its minimum in a
  // flash sale and refused 193,379 of 200,000 buyers with 503 (`npm run bench`, 2026-12-02);
  // an operator who knows the instance's latency floor sets it well above that floor. Keying the
  // rule on each window's fastest answer instead (CoDel's standing-queue signal) collapsed the
  // same way on a busy machine (48,315 of 50,000 buyers refused, 2026-12-02): a buyer refused in
  // a closed loop asks again at once, so every refusal adds load and slows the admitted answers.
  SHED_LATENCY_TARGET_MS: int(0),
  SHED_RETRY_AFTER_S: z.coerce.number().int().min(1).max(120).default(1),
  WECHAT_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  WECHAT_BREAKER_ERROR_PCT: z.coerce.number().int().min(0).max(100).default(50),
  WECHAT_BREAKER_MIN_CALLS: z.coerce.number().int().min(1).default(10),
  WECHAT_BREAKER_RESET_MS: z.coerce.number().int().min(100).default(10_000),
  WECHAT_BREAKER_WINDOW_MS: z.coerce.number().int().min(1_000).default(10_000),
});

/** The load shedder's bounds (http/shedding.ts LoadShedder). */
export interface SheddingOptions {
  /** Refuse while the event loop's recent lag (p99 of the last window) is over this; 0: off. */
  maxEventLoopLagMs: number;
  /** Refuse while more requests than this are in flight on this instance; 0: off. */
  maxInflight: number;
  /**
   * The bound while the instance is overloaded, that is, it refused a request for being over
   * its full bound within the last overloadHoldMs (0: maxInflight throughout); see inflightLimit.
   */
  maxInflightOverloaded: number;
  overloadHoldMs: number;
  /**
   * Admitted requests should be answered within this: the in-flight bound adapts below
   * maxInflight until they are (concurrency-limit.ts); 0: the bound stays maxInflight.
   */
  latencyTargetMs: number;
  /** What Retry-After tells a refused client (seconds). */
  retryAfterS: number;
  /** How often the lag is sampled; the refusal follows a saturation within about this long. */
  sampleMs?: number;
}

/** The circuit breaker around WeChat Pay calls (wechat/breaker.ts). */
export interface BreakerOptions {
  /** A WeChat Pay call taking longer than this fails (and counts against WeChat). */
  timeoutMs: number;
  /** The breaker opens when at least this share of the window's calls failed (0: no breaker)... */
  errorThresholdPct: number;
  /** ...and the window saw at least this many calls (a single failure never opens it). */
  volumeThreshold: number;
  /** Open this long, then one trial call decides (half-open). */
  resetMs: number;
  /** The rolling window the failure share is counted over. */
  windowMs: number;
}

export interface ResilienceConfig {
  shedding: SheddingOptions;
  wechatBreaker: BreakerOptions;
}

export function loadResilienceConfig(source: NodeJS.ProcessEnv): ResilienceConfig {
  const e = Env.parse(source);
  return {
    shedding: {
      maxEventLoopLagMs: e.SHED_EVENT_LOOP_LAG_MS,
      maxInflight: e.SHED_INFLIGHT_MAX,
      maxInflightOverloaded: e.SHED_INFLIGHT_MAX_OVERLOADED,
      overloadHoldMs: e.SHED_OVERLOAD_HOLD_MS,
      latencyTargetMs: e.SHED_LATENCY_TARGET_MS,
      retryAfterS: e.SHED_RETRY_AFTER_S,
    },
    wechatBreaker: {
      timeoutMs: e.WECHAT_TIMEOUT_MS,
      errorThresholdPct: e.WECHAT_BREAKER_ERROR_PCT,
      volumeThreshold: e.WECHAT_BREAKER_MIN_CALLS,
      resetMs: e.WECHAT_BREAKER_RESET_MS,
      windowMs: e.WECHAT_BREAKER_WINDOW_MS,
    },
  };
}
