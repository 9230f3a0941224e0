import { ERRORS, isErrorCode, type ErrorCode } from '@showtix/shared-types';

const TOKEN_KEY = 'showtix-admin-token';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'NETWORK',
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** What to tell the user about a failed request: the server's own message, else `fallback`. */
export function errorText(e: unknown, fallback: string): string {
  return e instanceof ApiError ? e.message : fallback;
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/** The page signs out when any request says the session is over. */
export function onUnauthorized(fn: Listener): () => void {
  unauthorizedListeners.add(fn);
  return () => unauthorizedListeners.delete(fn);
}

export const tokenStore = {
  get: (): string | null => localStorage.getItem(TOKEN_KEY),
  set: (t: string) => localStorage.setItem(TOKEN_KEY, t),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

/** Turns an error answer into an ApiError with the server's Chinese message. */
async function toApiError(res: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  const err = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)
    ?.error;
  const code = isErrorCode(err?.code) ? err.code : res.status === 401 ? 'UNAUTHORIZED' : 'INTERNAL';
  const message = typeof err?.message === 'string' ? err.message : ERRORS[code].message;
  return new ApiError(res.status, code, message, err?.details);
}

async function send(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const token = tokenStore.get();
  const h: Record<string, string> = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof Blob) payload = body;
  else if (body !== undefined) {
    h['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(path, { method, headers: h, body: payload });
  } catch {
    throw new ApiError(0, 'NETWORK', '网络连接失败，请检查网络后重试');
  }
  if (!res.ok) {
    const err = await toApiError(res);
    if (res.status === 401 && token) unauthorizedListeners.forEach((fn) => fn());
    throw err;
  }
  return res;
}

export async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<T> {
  const res = await send(method, path, body, headers);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** Downloads a file the API builds (exports), under the name the server gives it. */
export async function download(path: string, fallbackName: string): Promise<void> {
  const res = await send('GET', path);
  const cd = res.headers.get('content-disposition') ?? '';
  const m = /filename\*=UTF-8''([^;]+)/i.exec(cd);
  const name = m ? decodeURIComponent(m[1]!) : fallbackName;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
