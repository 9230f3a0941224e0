import { ApiError, errorText, fieldErrors, networkError, parseApiError } from '@showtix/shared-types';
import type { AdminItems } from '@showtix/shared-types';

const TOKEN_KEY = 'showtix-admin-token';

/** The one error type and parser of both front ends (shared-types). */
export { ApiError, errorText, fieldErrors };

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
  const body: unknown = await res.json().catch(() => undefined);
  return parseApiError(res.status, body);
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
    throw networkError();
  }
  if (!res.ok) {
    const err = await toApiError(res);
    if (res.status === 401 && token) unauthorizedListeners.forEach((fn) => fn());
    throw err;
  }
  return res;
}

/** The transport of the typed API modules beside this file; pages call those, never this. */
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

/** GET of a list endpoint: its rows under `items`. */
export const listOf =
  <T>(path: string) =>
  () =>
    api<AdminItems<T>>('GET', path);

/**
 * The list, read, create and update calls of one admin resource under `base`; create and update
 * answer `Saved` (the detail by default, the summary where the server answers that).
 */
export function resource<Row, Detail, Create, Update, Saved = Detail>(base: string) {
  return {
    list: listOf<Row>(base),
    get: (id: string) => api<Detail>('GET', `${base}/${id}`),
    create: (body: Create) => api<Saved>('POST', base, body),
    update: (id: string, body: Update) => api<Saved>('PATCH', `${base}/${id}`, body),
  };
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
