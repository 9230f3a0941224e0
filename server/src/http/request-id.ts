import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

/** An incoming X-Request-Id is kept only when it is short and plain (it lands in every log line). */
const SANE_ID = /^[A-Za-z0-9._:/+=-]{8,128}$/;

const current = new AsyncLocalStorage<string>();

/**
 * pino mixin: every line logged while a request runs (in any service, after any await) carries
 * its id, so one request's story can be pulled out of N instances' logs.
 */
export function requestIdMixin(): { reqId?: string } {
  const id = current.getStore();
  return id ? { reqId: id } : {};
}

/**
 * Runs fn with the request's id in the log context (`context` on), or just runs it. Not an async
 * function: the context covers fn directly, with no extra closure and promise per request (each
 * one also pays the async hooks AsyncLocalStorage installs).
 */
export function requestContext(context: boolean): <T>(id: string, fn: () => T) => T {
  return context ? (id, fn) => current.run(id, fn) : (_id, fn) => fn();
}

/** The id of a request: the X-Request-Id it came with when sane, else a new one. */
export function requestIdOf(incoming: string): string {
  return SANE_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * X-Request-Id: honour a sane one from the proxy or client, otherwise make one; echo it in the
 * response (error answers too). With `context` (LOG_REQUEST_CONTEXT, config/runtime.ts) it is
 * also kept in the log context for the rest of the request, so every line any service logs for it
 * carries the id; without, the request's own lines (its failure, its debug line) still do.
 */
export function requestIdMiddleware(log: Logger, context = true) {
  const within = requestContext(context);
  return (ctx: Context, next: Next) => {
    const id = requestIdOf(ctx.get('X-Request-Id'));
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    // The per-request debug line (its fields and timing) only when debug is on.
    if (!log.isLevelEnabled('debug')) return within(id, next);
    const started = performance.now();
    return within(id, async () => {
      try {
        await next();
      } finally {
        log.debug(
          {
            reqId: id,
            method: ctx.method,
            path: ctx.path,
            status: ctx.status,
            ms: Math.round(performance.now() - started),
          },
          'request',
        );
      }
    });
  };
}
