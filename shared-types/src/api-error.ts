import { ERRORS, isErrorCode, type ErrorCode } from './errors';

/**
 * The one error type of both front ends (fan app and admin page): an API error code, or NETWORK
 * when no answer came. Built from named fields, so no caller can swap status and code.
 */
export type ClientErrorCode = ErrorCode | 'NETWORK';

export interface ApiErrorFields {
  code: ClientErrorCode;
  /** HTTP status; 0 when no answer came. */
  status: number;
  message: string;
  /** From Retry-After on 429/503 answers. */
  retryAfterMs?: number;
  details?: unknown;
}

export class ApiError extends Error {
  readonly code: ClientErrorCode;
  readonly status: number;
  readonly retryAfterMs?: number;
  readonly details?: unknown;

  constructor(f: ApiErrorFields) {
    super(f.message);
    this.name = 'ApiError';
    this.code = f.code;
    this.status = f.status;
    this.retryAfterMs = f.retryAfterMs;
    this.details = f.details;
  }
}

/** No answer at all (offline, DNS, refused connection); `message` is the page's own wording. */
export const networkError = (message = '网络连接失败，请检查网络后重试'): ApiError =>
  new ApiError({ code: 'NETWORK', status: 0, message });

/**
 * The error of a non-2xx answer: the body's `{ error: { code, message, details } }` when it has
 * one; otherwise UNAUTHORIZED for 401, INTERNAL for 5xx and VALIDATION_FAILED for other 4xx
 * (a proxy's or gateway's page), with the shared Chinese message of that code.
 */
export function parseApiError(status: number, body: unknown, retryAfterMs?: number): ApiError {
  const err = (
    body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null | undefined
  )?.error;
  const code: ErrorCode = isErrorCode(err?.code)
    ? err.code
    : status === 401
      ? 'UNAUTHORIZED'
      : status >= 500
        ? 'INTERNAL'
        : 'VALIDATION_FAILED';
  const message = typeof err?.message === 'string' && err.message ? err.message : ERRORS[code].message;
  return new ApiError({ code, status, message, retryAfterMs, details: err?.details });
}

/** What to tell the user about a failure: the server's own message, else `fallback`. */
export function errorText(e: unknown, fallback: string): string {
  return e instanceof ApiError ? e.message : fallback;
}

/**
 * The field errors of a VALIDATION_FAILED answer, by field path ("blocks.0.curve" → message):
 * the server sends the schema's issues as `details: [{ path, message }]`.
 */
export function fieldErrors(e: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!(e instanceof ApiError) || e.code !== 'VALIDATION_FAILED' || !Array.isArray(e.details)) return out;
  for (const d of e.details as unknown[]) {
    const { path, message } = (d ?? {}) as { path?: unknown; message?: unknown };
    if (typeof path === 'string' && typeof message === 'string' && !out.has(path)) out.set(path, message);
  }
  return out;
}

/** True when a message is written for people (Chinese), not a schema's English default. */
export const hasChinese = (s: string): boolean => /[\u4e00-\u9fa5]/.test(s);
