import type { IncomingMessage, ServerResponse } from 'node:http';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import parseurl from 'parseurl';
import type { Context, Next } from 'koa';
import { ERRORS } from '@showtix/shared-types';
import { ADMIN_PREFIX } from './admin/http';
import { AdaptiveLimit } from './concurrency-limit';
import { answerRaw } from './raw-answer';
import type { SheddingOptions } from '../config/resilience';

/** A refusal's answer: Koa's middleware sends the object, the early path its bytes. */
const OVERLOADED = { error: { code: 'OVERLOADED', message: ERRORS.OVERLOADED.message } };
const OVERLOADED_BODY = Buffer.from(JSON.stringify(OVERLOADED));

/** The timer resolution of the lag histogram: fine enough for bounds of tens of milliseconds. */
const RESOLUTION_MS = 10;
const NS_PER_MS = 1e6;

/**
 * Never refused: probes (a balancer must see a busy instance as alive), metrics, the admin API
 * (operators flip the degradation switches that end an overload from it; its traffic is tiny)
 * and WeChat Pay's notifications (the money was taken already; refusing would only delay the
 * ticket, and WeChat retries on a schedule of minutes).
 */
function exempt(path: string): boolean {
  return (
    path === '/livez' ||
    path === '/readyz' ||
    path === '/healthz' ||
    path === '/metrics' ||
    path.startsWith(ADMIN_PREFIX) ||
    path.startsWith('/api/v1/pay/wechat/')
  );
}

/**
 * Early refusal of an instance that is saturated, so that the requests it admits stay fast
 * instead of every request slowing down together. Two cheap signals, both read without any
 * I/O: the event loop's lag over the last sample window (monitorEventLoopDelay), and the number
 * of requests in flight (counted by the lifecycle middleware) against a bound that adapts to the
 * latency admitted requests get (AdaptiveLimit). A refusal is 503 OVERLOADED with Retry-After,
 * answered before the body is parsed or anything else runs, so a refused request changed nothing.
 */
export class LoadShedder {
  private readonly histogram: IntervalHistogram;
  private timer?: NodeJS.Timeout;
  private lag = 0;
  private lastWindow = 0;
  private sampledAt = 0;
  private refusedCount = 0;
  /** When a request was last refused for the in-flight bound (performance.now()). */
  private overloadedAt = -Infinity;
  private readonly adaptive?: AdaptiveLimit;
  /** What Retry-After tells a refused client. */
  private readonly retryAfter: string;

  constructor(
    private readonly o: SheddingOptions,
    private readonly inFlight: () => number,
  ) {
    this.retryAfter = String(o.retryAfterS);
    this.histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    if (o.maxInflight > 0 && o.latencyTargetMs > 0)
      this.adaptive = new AdaptiveLimit({ max: o.maxInflight, targetMs: o.latencyTargetMs });
  }

  /**
   * The bound of requests in flight now: maxInflight, or less while admitted ones are slow
   * (adaptive), or maxInflightOverloaded while the instance is overloaded.
   *
   * Why two bounds: by Little's law an admitted request waits about (in flight) / (throughput).
   * A flash sale's crowd behind a few connections (the benches' closed loops: 100) never reaches
   * maxInflight and must not be refused; an offer beyond what the instance serves reaches it at
   * once, and from then the smaller bound keeps what it admits fast. Measured (issue 14's overload
   * bench, 7,000 purchases/s offered, alternated, 2026-12-05): 64 in flight gave an admitted p99 of
   * 73 and 118 ms with 3,822 and 3,020 admitted/s; 128 gave 376 and 224 ms with 2,011 and 2,610.
   * A fixed 64 would refuse the closed loops' 100 (21,722 buyers refused in `npm run bench`).
   */
  get inflightLimit(): number {
    const limit = this.fullLimit();
    return this.overloaded() ? Math.min(limit, this.o.maxInflightOverloaded) : limit;
  }

  /** The bound when not overloaded: maxInflight, or the adaptive bound below it. */
  private fullLimit(): number {
    return this.adaptive?.limit ?? this.o.maxInflight;
  }

  /** Whether a request was refused for the full in-flight bound within the last overloadHoldMs. */
  private overloaded(): boolean {
    return this.o.maxInflightOverloaded > 0 && performance.now() - this.overloadedAt < this.o.overloadHoldMs;
  }

  /** The sustained lag in ms: the lower p99 of the last two windows, less the timer's own period. */
  get lagMs(): number {
    return this.lag;
  }

  get refused(): number {
    return this.refusedCount;
  }

  start(): void {
    if (this.timer || (this.o.maxEventLoopLagMs <= 0 && !this.adaptive)) return;
    this.histogram.enable();
    this.sampledAt = performance.now();
    this.timer = setInterval(() => this.sample(), this.o.sampleMs ?? 100);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.histogram.disable();
  }

  private sample(): void {
    const p99 = this.histogram.count ? this.histogram.percentile(99) / NS_PER_MS : 0;
    // The sampling timer's own lateness too: a window in which the histogram's timer never got
    // to run (the loop busy throughout) has no samples, but this timer was late by as much.
    const at = performance.now();
    const late = at - this.sampledAt - (this.o.sampleMs ?? 100);
    this.sampledAt = at;
    const window = Math.max(0, p99 - RESOLUTION_MS, late);
    // Sustained lag, not a blip: the lower of the last two windows (one GC pause, or the process
    // descheduled once on a busy machine, does not refuse anyone).
    this.lag = Math.min(window, this.lastWindow);
    this.lastWindow = window;
    this.histogram.reset();
    this.adaptive?.update();
  }

  /**
   * Why this instance refuses new work now, or undefined when it takes it. `arriving`: requests
   * not yet counted in flight that would be (1 before the lifecycle middleware has counted one).
   */
  saturated(arriving = 0): 'lag' | 'inflight' | undefined {
    const inFlight = this.inFlight() + arriving;
    if (this.o.maxInflight > 0 && inFlight > this.inflightLimit) {
      // Over the full bound: overloaded from now for overloadHoldMs. A refusal under the smaller
      // bound only does not renew it, so that the instance takes the full bound again after the
      // hold: a load that needs more than the smaller bound but less than the full one (a crowd
      // after its spike) is refused for one hold at most; an overload goes past the full bound
      // again within milliseconds and is overloaded for another hold.
      if (inFlight > this.fullLimit()) this.overloadedAt = performance.now();
      return 'inflight';
    }
    if (this.o.maxEventLoopLagMs > 0 && this.lag > this.o.maxEventLoopLagMs) return 'lag';
    return undefined;
  }

  /**
   * Before Koa (http/serve.ts): whether a saturated instance refuses this raw request now, counted
   * as refused from here; its 503 is answerRefusal's. Under overload most requests are refused,
   * and through Koa each refusal paid for a context and four middlewares: refusing alone kept the
   * event loop saturated, and admitted requests waited behind the refusals.
   */
  refusesEarly(req: IncomingMessage): boolean {
    // The path as Koa's ctx.path reads it (parseurl, which keeps its parse on the request).
    if (!this.saturated(1) || exempt(parseurl(req)?.pathname ?? '/')) return false;
    this.refusedCount++;
    return true;
  }

  /** The early refusal's answer: 503 OVERLOADED with Retry-After and the request's id. */
  answerRefusal(req: IncomingMessage, res: ServerResponse): void {
    answerRaw(req, res, 503, OVERLOADED_BODY, { 'Retry-After': this.retryAfter });
  }

  /**
   * After the lifecycle middleware (it counts this request as in flight). What refusesEarly let
   * through is refused here only if the instance saturated since (or it is served without
   * http/serve.ts); the adaptive bound's timing of admitted requests starts here.
   */
  middleware() {
    return async (ctx: Context, next: Next) => {
      if (exempt(ctx.path)) return next();
      if (this.saturated()) {
        this.refusedCount++;
        ctx.status = 503;
        ctx.set('Retry-After', this.retryAfter);
        ctx.body = OVERLOADED;
        return;
      }
      this.admitted(ctx.res);
      await next();
    };
  }

  /** Times an admitted request for the adaptive bound, until its answer has left (as the lifecycle counts it). */
  admitted(res: ServerResponse): void {
    const adaptive = this.adaptive;
    if (!adaptive) return;
    const admittedAt = performance.now();
    res.once('close', () => adaptive.record(performance.now() - admittedAt));
  }
}
