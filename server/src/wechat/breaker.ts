import CircuitBreaker from 'opossum';
import { WechatPayError } from './pay-error';
import { AppError, appError } from '../errors';
import type { BreakerOptions } from '../config/resilience';

export type BreakerState = 'closed' | 'open' | 'half_open';

/**
 * A WeChat Pay call refused without being sent, or given up on after the timeout: WeChat is
 * slow or failing. `status` 0 like a network error, so callers that retry network errors (the
 * refund sweeper, the payment checks, the close before a cancel) treat it the same way.
 */
export class WechatBusyError extends WechatPayError {
  constructor(code: 'BREAKER_OPEN' | 'TIMEOUT', message: string) {
    super(0, code, message);
  }
}

/**
 * WeChat's answers that are about the request (ORDERPAID, NOT_ENOUGH, INVALID_REQUEST, a 404):
 * WeChat is up and working, so they do not count towards opening the breaker.
 */
function answeredByWechat(err: unknown): boolean {
  const status = (err as { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * One circuit breaker (opossum) around every call to WeChat Pay (prepay, query, close, refund,
 * refund query, bills): when WeChat times out or fails for half of the recent calls, further
 * calls fail at once for resetMs instead of each fan and each job waiting out a timeout, then
 * a trial call decides. One breaker for the host, not per call: they share WeChat's fate.
 */
export class WechatBreaker {
  private readonly breaker: CircuitBreaker<[() => Promise<unknown>], unknown>;

  constructor(o: BreakerOptions) {
    this.breaker = new CircuitBreaker((call: () => Promise<unknown>) => call(), {
      timeout: o.timeoutMs,
      errorThresholdPercentage: o.errorThresholdPct,
      volumeThreshold: o.volumeThreshold,
      resetTimeout: o.resetMs,
      rollingCountTimeout: o.windowMs,
      rollingCountBuckets: 10,
      errorFilter: answeredByWechat,
    });
  }

  get state(): BreakerState {
    if (this.breaker.opened) return 'open';
    return this.breaker.halfOpen ? 'half_open' : 'closed';
  }

  /** Called when the breaker opens (logged by the app: WeChat Pay is failing). */
  onOpen(fn: () => void): void {
    this.breaker.on('open', fn);
  }

  async run<T>(call: () => Promise<T>): Promise<T> {
    try {
      return (await this.breaker.fire(call)) as T;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code === 'EOPENBREAKER')
        throw new WechatBusyError('BREAKER_OPEN', 'WeChat Pay breaker is open: call not sent');
      if (code === 'ETIMEDOUT' && CircuitBreaker.isOurError(err as Error))
        throw new WechatBusyError('TIMEOUT', 'WeChat Pay did not answer in time');
      throw err;
    }
  }

  /** Stops opossum's timers (tests and shutdown). */
  shutdown(): void {
    this.breaker.shutdown();
  }
}

/** The fan's answer when WeChat Pay is busy: 503 WECHAT_BUSY, try again in a few seconds. */
export function wechatBusy(err: WechatBusyError): AppError {
  const e = appError('WECHAT_BUSY', { reason: err.code });
  return new AppError(e.code, e.status, true, e.message, e.details, { 'Retry-After': '5' });
}
