import type { Server } from 'node:http';
import { createApp, leanLane } from '../../src/app';
import { apiServer } from '../../src/http/serve';
import { createTestEnv, type TestEnv } from './env';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestServer {
  url: string;
  close(): Promise<void>;
  /** JSON request; `token` becomes a bearer header. */
  call<T = any>(
    method: string,
    path: string,
    o?: { token?: string; body?: unknown; headers?: Record<string, string>; raw?: string },
  ): Promise<ApiResponse<T>>;
  tokenFor(userId: string, roles?: ('fan' | 'staff' | 'admin')[]): Promise<string>;
}

/** The real app on a random port, over real HTTP. */
/** `lean: false` leaves the lean lane out: every request through Koa (to hold the lane's answers against). */
export async function startTestServer(
  env: TestEnv,
  port = 0,
  o: { lean?: boolean } = {},
): Promise<TestServer> {
  const app = createApp(env.deps);
  const lane = o.lean === false ? undefined : leanLane(app, env.deps);
  const server = await new Promise<Server>((resolve) => {
    const s = apiServer(app, env.deps, lane).listen(port, '127.0.0.1', () => resolve(s));
  });
  const addr = server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  return {
    url,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
    async call(method, path, o = {}) {
      const headers: Record<string, string> = { ...(o.headers ?? {}) };
      if (o.token) headers.authorization = `Bearer ${o.token}`;
      let body: string | undefined = o.raw;
      if (o.body !== undefined) {
        body = JSON.stringify(o.body);
        headers['content-type'] ??= 'application/json';
      } else if (o.raw !== undefined) {
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(url + path, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON: keep text */
      }
      return { status: res.status, body: parsed as any, headers: res.headers };
    },
    tokenFor(userId, roles = ['fan']) {
      return env.deps.tokens.issue({ userId, roles });
    },
  };
}

/**
 * For the tests of one file: a fresh environment (config `overrides`) and the app on it, closed
 * after the last test. Read `env` and `api` inside the tests, once beforeAll has run.
 */
export function serverForFile(overrides: Record<string, string> = {}): { env: TestEnv; api: TestServer } {
  const ctx = {} as { env: TestEnv; api: TestServer };
  beforeAll(async () => {
    ctx.env = await createTestEnv(overrides);
    ctx.api = await startTestServer(ctx.env);
  });
  afterAll(async () => {
    await ctx.api.close();
    await ctx.env.close();
  });
  return ctx;
}
