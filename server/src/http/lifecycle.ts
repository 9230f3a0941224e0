import type { ServerResponse } from 'node:http';
import type { Context, Next } from 'koa';
const DRAINING_MESSAGE = '服务正在重启，请稍后再试';

/**
 * One instance's serving state: warming up (http/warm-up.ts), ready, then draining once shutdown
 * begins. While warming up, /readyz says 503 (the balancer sends nothing yet). While draining,
 * /readyz says 503 (the balancer stops sending), requests already running finish, and a request
 * that still arrives on a kept-alive connection is refused with 503 before it does anything
 * (nginx passes it to another instance: proxy_next_upstream http_503).
 */
export class Lifecycle {
  private draining = false;
  private warming = false;
  private inflight = 0;
  private idle: (() => void)[] = [];
  private readonly tracked = new WeakSet<ServerResponse>();

  get isDraining(): boolean {
    return this.draining;
  }

  get inFlight(): number {
    return this.inflight;
  }

  /** True while the instance sends its own warm-up requests (readiness waits for the end). */
  get isWarming(): boolean {
    return this.warming;
  }

  warmingUp(on: boolean): void {
    this.warming = on;
  }

  startDrain(): void {
    this.draining = true;
    if (this.inflight === 0) this.wake();
  }

  /** Resolves true once no request is running, or false when limitMs passes first. */
  drained(limitMs: number): Promise<boolean> {
    if (this.inflight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), limitMs);
      this.idle.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** The outermost middleware: counts requests in flight and refuses new ones while draining. */
  middleware() {
    return async (ctx: Context, next: Next) => {
      if (this.draining) {
        // Answered here, outside the error middleware: nothing of the request runs.
        ctx.set('Connection', 'close');
        ctx.status = 503;
        ctx.body = { error: { code: 'SERVICE_UNAVAILABLE', message: DRAINING_MESSAGE } };
        return;
      }
      this.track(ctx.res);
      await next();
      // The client must not reuse a connection this instance is about to close.
      if (this.draining) ctx.set('Connection', 'close');
    };
  }

  /**
   * Counts a request in flight until its response has left (or the client hung up), not merely
   * until the handlers return: closing connections earlier would cut an answer being written.
   */
  track(res: ServerResponse): void {
    // Once per answer: the API's server counts every request it admits on arrival (serve.ts),
    // and this middleware, which also serves apps without that server (tests), would count it
    // again.
    if (this.tracked.has(res)) return;
    this.tracked.add(res);
    this.inflight++;
    res.once('close', () => {
      this.inflight--;
      if (this.inflight === 0) this.wake();
    });
  }

  private wake(): void {
    for (const fn of this.idle.splice(0)) fn();
  }
}
