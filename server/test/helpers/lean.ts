import Koa from 'koa';
import { createTestEnv, type TestEnv } from './env';
import { startTestServer, type TestServer } from './http';

/** Answers that differ between two requests whatever serves them. */
const PER_REQUEST = new Set(['date', 'x-request-id']);

export interface Answer {
  status: number;
  body: any;
  /** Every header but the date and the request id. */
  headers: Record<string, string>;
  id: string | null;
}

export async function get(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  init: RequestInit = {},
): Promise<Answer> {
  const res = await fetch(base + path, { headers, ...init });
  const h = Object.fromEntries([...res.headers].filter(([k]) => !PER_REQUEST.has(k)));
  return { status: res.status, body: await res.json(), headers: h, id: res.headers.get('x-request-id') };
}

/**
 * For the lean lane's tests of one file: an environment (config `overrides`), its app with the
 * lane (`lean`) and without it (`koa`: every request through Koa, as before the lane), and
 * `both`, which sends one request to each and says how many Koa contexts each built.
 */
export function laneAndKoa(overrides: Record<string, string> = {}) {
  const t = {} as { env: TestEnv; lean: TestServer; koa: TestServer };
  const contexts = jest.spyOn(Koa.prototype, 'createContext');
  beforeAll(async () => {
    t.env = await createTestEnv(overrides);
    t.lean = await startTestServer(t.env);
    t.koa = await startTestServer(t.env, 0, { lean: false });
  });
  afterAll(async () => {
    contexts.mockRestore();
    await t.koa.close();
    await t.lean.close();
    await t.env.close();
  });
  async function both(path: string, headers: Record<string, string> = {}, init: RequestInit = {}) {
    contexts.mockClear();
    const viaLane = await get(t.lean.url, path, headers, init);
    const laneContexts = contexts.mock.calls.length;
    contexts.mockClear();
    const viaKoa = await get(t.koa.url, path, headers, init);
    return { viaLane, viaKoa, laneContexts, koaContexts: contexts.mock.calls.length };
  }
  return { t, contexts, both };
}
