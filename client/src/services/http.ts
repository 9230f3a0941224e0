import Taro from '@tarojs/taro';
import { networkError, parseApiError } from './shared';
import { apiBase } from './config';
import type { ApiError } from './errors';
import { authHeader, relogin } from './auth';
import { deviceId } from './device';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'DELETE';
  body?: unknown;
  /** Sends the fan's bearer token, logging in first when there is none. */
  auth?: boolean;
  idempotencyKey?: string;
  /** false: a 429 or shed 503 goes straight to the caller (pollers that schedule their own back-off). */
  waitOut429?: boolean;
}

interface RawResponse {
  statusCode: number;
  data: unknown;
  header: Record<string, string>;
}

/** The longest Retry-After the layer waits out by itself; longer ones go to the page. */
const AUTO_RETRY_MAX_MS = 3000;

function headerValue(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key ? headers[key] : undefined;
}

export function retryAfterMs(headers: Record<string, string> | undefined): number | undefined {
  const v = headerValue(headers, 'retry-after');
  if (!v) return undefined;
  const s = Number(v);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function toError(res: RawResponse): ApiError {
  return parseApiError(
    res.statusCode,
    res.data,
    res.statusCode === 429 || res.statusCode === 503 ? retryAfterMs(res.header) : undefined,
  );
}

async function send(path: string, opts: RequestOptions): Promise<RawResponse> {
  const header: Record<string, string> = {
    'content-type': 'application/json',
    'X-Device-Id': deviceId(),
  };
  if (opts.auth) Object.assign(header, await authHeader());
  if (opts.idempotencyKey) header['Idempotency-Key'] = opts.idempotencyKey;
  try {
    const res = await Taro.request({
      url: `${apiBase()}${path}`,
      method: opts.method ?? 'GET',
      data: opts.body as Record<string, unknown> | undefined,
      header,
      dataType: 'json',
    });
    return {
      statusCode: res.statusCode,
      data: res.data,
      header: (res.header ?? {}) as Record<string, string>,
    };
  } catch {
    throw networkError('网络不给力，请检查网络后重试');
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * How long to wait before the one repeat of a refused request, if it is worth repeating: a 429,
 * or a 503 that says when to come back (an instance shedding load answers before doing any of
 * the work, so the repeat is safe wherever the request is).
 */
function shortWait(res: RawResponse): number | undefined {
  if (res.statusCode === 429) return retryAfterMs(res.header) ?? 1000;
  if (res.statusCode === 503) return retryAfterMs(res.header);
  return undefined;
}

/**
 * The only way the client talks HTTP. Answers the parsed body or throws ApiError. A stale token
 * is replaced once by logging in again; a short 429, or a short 503 with Retry-After (an instance
 * shedding load), is waited out once when the call is safe to repeat (a GET, or a POST carrying an
 * Idempotency-Key). Without the 503 wait a page whose first load met a moment of shedding stayed
 * on its error until the fan tapped retry.
 */
export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  let res = await send(path, opts);
  if (res.statusCode === 401 && opts.auth) {
    await relogin();
    res = await send(path, opts);
  }
  const repeatable = (opts.method ?? 'GET') === 'GET' || Boolean(opts.idempotencyKey);
  const wait = shortWait(res);
  if (wait !== undefined && repeatable && opts.waitOut429 !== false && wait <= AUTO_RETRY_MAX_MS) {
    await sleep(wait);
    res = await send(path, opts);
  }
  if (res.statusCode >= 200 && res.statusCode < 300) return res.data as T;
  throw toError(res);
}
