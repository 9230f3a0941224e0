import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { ERRORS } from '@showtix/shared-types';
import { z, ZodError } from 'zod';
import { AppError, appError } from '../errors';

// AppError moved to src/errors.ts (domains throw it; only the HTTP translation lives here).
export { AppError, appError };

// Validation messages reach organisers and fans: zod's own ones in Simplified Chinese too.
z.config(z.locales.zhCN());

function fromZod(err: ZodError): AppError {
  const details = err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  return appError('VALIDATION_FAILED', details);
}

/** Errors thrown by Koa and its body parser carry an HTTP status. */
function fromHttp(err: { status?: number; type?: string }): AppError | undefined {
  if (err.status === 413) return appError('PAYLOAD_TOO_LARGE');
  if (err.status === 415) return appError('VALIDATION_FAILED', undefined, '请求体必须是 JSON');
  if (err.status === 400) return appError('VALIDATION_FAILED', undefined, '请求体不是合法的 JSON');
  return undefined;
}

/** Driver errors that mean MySQL or Redis is out of reach, not that the request is wrong. */
const UNREACHABLE = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ER_CON_COUNT_ERROR',
]);

/** Redis (Cluster) answers while a node is down or a failover is under way. */
const REDIS_UNAVAILABLE =
  /^(CLUSTERDOWN|TRYAGAIN|LOADING|MASTERDOWN|Too many Cluster redirections|Connection is closed)/;

/**
 * A write refused for a lock: InnoDB rolled back the deadlock victim's whole transaction, or (a
 * lock wait past its timeout, innodb_rollback_on_timeout off) the statement, and the transaction
 * helpers (db/pool.ts inTransaction, db/group-commit.ts) roll back the rest before the error
 * reaches here. Nothing of the request was written, and it may run again (every retryable write
 * is idempotent).
 */
const ROLLED_BACK = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);
/** Shared by every such answer: frozen, so no one answer can change another's. */
const RETRY_NOW: Readonly<Record<string, string>> = Object.freeze({ 'Retry-After': '1' });
const rolledBack = (err: { code?: unknown }) => typeof err.code === 'string' && ROLLED_BACK.has(err.code);

function unreachable(err: { code?: unknown; fatal?: unknown; name?: unknown; message?: unknown }): boolean {
  return (
    err.fatal === true ||
    (typeof err.code === 'string' && UNREACHABLE.has(err.code)) ||
    err.name === 'MaxRetriesPerRequestError' ||
    err.name === 'ClusterAllFailedError' ||
    (typeof err.message === 'string' && REDIS_UNAVAILABLE.test(err.message))
  );
}

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) return fromZod(err);
  if (typeof err === 'object' && err !== null) {
    const mapped = fromHttp(err as { status?: number });
    if (mapped) return mapped;
    // Worth retrying in a moment: 503 (the client's way forward), still logged as an error.
    if (unreachable(err)) return new AppError('SERVICE_UNAVAILABLE', 503, false);
    // Worth retrying at once: the client repeats a safe request after Retry-After by itself.
    if (rolledBack(err))
      return new AppError('SERVICE_UNAVAILABLE', 503, false, undefined, undefined, RETRY_NOW);
  }
  return new AppError('INTERNAL', 500, false);
}

export interface ErrorAnswer {
  status: number;
  headers?: Record<string, string>;
  body: { error: { code: string; message: string; details?: unknown } };
}

/**
 * What a failed request answers: {error: {code, message}} with its status. An unexpected error
 * is logged and shows only its code's generic message. The error middleware and the lean lane
 * (http/lean.ts) both answer through here.
 */
export function errorAnswer(
  err: unknown,
  log: Logger,
  where: { path: string; method: string; reqId: unknown },
): ErrorAnswer {
  const e = toAppError(err);
  if (!e.expose) log.error({ err, ...where }, 'request failed');
  const message = e.expose ? e.message : ERRORS[e.code].message;
  // Two literals, not a conditional spread: most refusals in a sale answer here (see lean.ts).
  const error =
    e.expose && e.details ? { code: e.code, message, details: e.details } : { code: e.code, message };
  return { status: e.status, headers: e.headers, body: { error } };
}

/** The first middleware: every error leaves as {error: {code, message}} with its status. */
export function errorMiddleware(log: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw appError('NOT_FOUND');
      // The routers' allowedMethods answer 405 (or 501 for a method no route knows) without a
      // body: every refusal carries a stable code, and an unknown method is not a server fault.
      if ((ctx.status === 405 || ctx.status === 501) && ctx.body === undefined)
        throw appError('METHOD_NOT_ALLOWED');
    } catch (err) {
      const a = errorAnswer(err, log, { path: ctx.path, method: ctx.method, reqId: ctx.state.requestId });
      ctx.status = a.status;
      if (a.headers) ctx.set(a.headers);
      ctx.body = a.body;
    }
  };
}
