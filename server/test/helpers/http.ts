import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, leanLane } from '../../src/app';
import { apiHandler } from '../../src/http/serve';
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

/**
 * A server listening on a port of its own (127.0.0.1, chosen by the system) that answers nothing
 * yet: for a test whose configuration must name the API's port before the app exists (the
 * notify URL). It holds the port from then on: a port found free, closed, then listened on
 * after the environment's set-up could be taken meanwhile by another socket of the parallel
 * test files, and listen's EADDRINUSE had no handler: the likely cause of a CI run's beforeAll
 * that hung to the hook's timeout.
 */
export async function reservedServer(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await listenOn(server, 0);
  return { server, port: (server.address() as AddressInfo).port };
}

/** Listens on 127.0.0.1:port; a failure (EADDRINUSE) rejects instead of going unheard. */
function listenOn(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * The real app over real HTTP: on a port the system chooses, on `port`, or on a server
 * reservedServer() already listens with.
 * `lean: false` leaves the lean lane out: every request through Koa (to hold the lane's answers against).
 */
export async function startTestServer(
  env: TestEnv,
  at: number | Server = 0,
  o: { lean?: boolean } = {},
): Promise<TestServer> {
  const app = createApp(env.deps);
  const lane = o.lean === false ? undefined : leanLane(app, env.deps);
  const server = typeof at === 'number' ? createServer() : at;
  server.on('request', apiHandler(app, env.deps, lane));
  if (typeof at === 'number') await listenOn(server, at);
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
