import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { apiRouters } from '../src/app';
import { literalStart, routeStarts, routerTable } from '../src/http/router-table';
import { createTestEnv, type TestEnv } from './helpers/env';

/** A set of routers shaped like the API's: prefixes, a parameter in a prefix, a `use`, a catch-all. */
/** `site`: with the H5-like catch-all last, or without (the last router then matches few paths). */
function routers(site: boolean): Router[] {
  const orders = new Router({ prefix: '/api/v1/orders' });
  orders.use((ctx, next) => {
    ctx.set('X-Auth', 'orders');
    return next();
  });
  orders.get('/', (ctx) => void (ctx.body = { r: 'orders.list' }));
  orders.get('/:no', (ctx) => void (ctx.body = { r: 'orders.get', no: ctx.params.no }));
  orders.post('/:no/cancel', (ctx) => void (ctx.body = { r: 'orders.cancel' }));
  const queue = new Router({ prefix: '/api/v1/sessions/:id/queue' });
  queue.post('/join', (ctx) => void (ctx.body = { r: 'queue.join', id: ctx.params.id }));
  queue.get('/', (ctx) => void (ctx.body = { r: 'queue.poll' }));
  // Another router on the same prefix: tried after the first, as a second router of orders is.
  const pay = new Router({ prefix: '/api/v1/orders' });
  pay.post('/:no/pay', (ctx) => void (ctx.body = { r: 'pay' }));
  const health = new Router();
  health.get('/livez', (ctx) => void (ctx.body = { r: 'livez' }));
  const admin = new Router({ prefix: '/api/v1/admin' });
  admin.get('/things', (ctx) => void (ctx.body = { r: 'admin.list' }));
  admin.put('/things/:id', (ctx) => void (ctx.body = { r: 'admin.put' }));
  // Last, as the H5 build's router: any GET path, which it leaves to the next middleware unless it is its own.
  const catchAll = new Router();
  catchAll.get('/{*path}', (ctx, next) => {
    if (ctx.path.startsWith('/api')) return next();
    ctx.body = { r: 'site', path: ctx.path };
  });
  return site ? [orders, queue, pay, health, admin, catchAll] : [orders, queue, pay, health, admin];
}

/** The app with its routers mounted as before (one after another) or through routerTable. */
function app(table: boolean, site = true): Koa {
  const a = new Koa();
  const rs = routers(site);
  // Counts the routers a request went through: each sets ctx.router when it looks at the path.
  a.use(async (ctx, next) => {
    let seen = 0;
    let router: unknown;
    Object.defineProperty(ctx, 'router', {
      configurable: true,
      get: () => router,
      set: (r) => {
        seen++;
        router = r;
      },
    });
    await next();
    ctx.set('X-Routers-Seen', String(seen));
  });
  if (table) a.use(routerTable(rs));
  else for (const r of rs) a.use(r.routes()).use(r.allowedMethods());
  return a;
}

interface Answer {
  status: number;
  allow?: string;
  auth?: string;
  seen: number;
  body: string;
}

function send(port: number, method: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', method, path }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          allow: res.headers.allow,
          auth: res.headers['x-auth'] as string | undefined,
          seen: Number(res.headers['x-routers-seen']),
          body,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'];
const PATHS = [
  '/api/v1/orders',
  '/api/v1/orders/',
  '/API/V1/Orders/123',
  '/api/v1/orders/123/cancel',
  '/api/v1/orders/123/pay',
  '/api/v1/ordersX',
  '/api/v1/sessions/9/queue/join',
  '/api/v1/Sessions/9/Queue',
  '/api/v1/sessions/9/queue/join/',
  '/api/v1/sessions/9',
  '/livez',
  '/LIVEZ/',
  '/livezz',
  '/api/v1/admin/things',
  '/api/v1/admin/things/4',
  '/api/v1/admin',
  '/api/v2/nothing',
  '/',
  '/index.html',
  '/%61pi/v1/orders',
];

describe('routerTable', () => {
  const servers: { close(): void }[] = [];
  afterAll(() => servers.forEach((s) => s.close()));

  const listen = (a: Koa) =>
    new Promise<number>((resolve) => {
      const s = a.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port));
      servers.push({ close: () => s.close() });
    });

  it.each([true, false])(
    'answers every method and path as the routers mounted one after another do (catch-all: %s)',
    async (site) => {
      const [before, after] = await Promise.all([listen(app(false, site)), listen(app(true, site))]);
      for (const path of [...PATHS, '*'])
        for (const method of METHODS) {
          const [b, a] = await Promise.all([send(before, method, path), send(after, method, path)]);
          const { seen: _b, ...was } = b;
          const { seen: _a, ...is } = a;
          expect({ method, path, ...is }).toEqual({ method, path, ...was });
          // Never more routers than before.
          expect(a.seen).toBeLessThanOrEqual(b.seen);
        }
    },
  );

  it('runs only the routers whose routes could match the path, the last one always', async () => {
    const [before, after] = await Promise.all([listen(app(false)), listen(app(true))]);
    // Mounted one after another, /livez went through the three routers before its own.
    expect((await send(before, 'GET', '/livez')).seen).toBe(4);
    expect((await send(after, 'GET', '/livez')).seen).toBe(1);
    // Both routers of the orders' prefix (the first one's `use` does not run: none of its routes
    // matched); the one that answered ended the chain.
    const pay = await send(after, 'POST', '/api/v1/orders/1/pay');
    expect(pay).toMatchObject({ status: 200, auth: undefined, seen: 2 });
    expect((await send(after, 'GET', '/api/v1/admin/things')).seen).toBe(1);
    // No route begins so: only the last router (its allowedMethods answers 501 as before).
    expect(await send(after, 'PROPFIND', '/nothing')).toMatchObject({ status: 501, seen: 1 });
    const without = await listen(app(true, false));
    expect(await send(without, 'PROPFIND', '/nothing')).toMatchObject({ status: 501, seen: 1 });
    expect(await send(without, 'PUT', '/api/v1/admin/things')).toMatchObject({ status: 405, seen: 1 });
  });

  it('reads the literal start of a route path', () => {
    expect(literalStart('/api/v1/orders/:no/cancel')).toBe('/api/v1/orders');
    expect(literalStart('/api/v1/Sessions/:id/queue')).toBe('/api/v1/sessions');
    expect(literalStart('/livez')).toBe('/livez');
    expect(literalStart('/admin{/*rest}')).toBe('/admin');
    expect(literalStart('/{*path}')).toBe('/');
    expect(literalStart('/a\\:b')).toBe('/a');
    expect(literalStart(/^\/x/)).toBeUndefined();
  });

  it('refuses routers that implement different methods', () => {
    const odd = new Router({ methods: ['GET', 'POST'] });
    expect(() => routerTable([new Router(), odd])).toThrow(/same methods/);
    expect(() => routerTable([])).toThrow(/no routers/);
  });
});

/**
 * The API's own routers: for sample paths of every route (parameters filled, optional parts with
 * and without, upper case, a trailing slash), every router with a route that matches the path is
 * among those the table runs for it.
 */
describe("routerTable on the API's routers", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(() => env.close());

  type Layer = { path: unknown; methods: string[]; regexp: RegExp };
  const routeLayers = (r: Router) => (r.stack as unknown as Layer[]).filter((l) => l.methods.length > 0);

  function samples(path: string): string[] {
    const fill = (p: string) => p.replace(/:(\w+)/g, '7').replace(/\*(\w+)/g, 'a/b');
    const without = fill(path.replace(/\{[^}]*\}/g, ''));
    const within = fill(path.replace(/[{}]/g, ''));
    return [without, within].flatMap((p) => [p, p.toUpperCase(), `${p}/`]);
  }

  // With the H5 build served (its catch-all router last) and without (production's default).
  it.each([true, false])('never leaves out a router that has a route for the path (H5: %s)', (serveH5) => {
    const rs = apiRouters({ ...env.deps, config: { ...env.deps.config, serveH5 } });
    expect(rs.length).toBe(serveH5 ? 37 : 36);
    const table = routeStarts(rs);
    const paths = rs.flatMap((r) =>
      routeLayers(r).flatMap((l) => (typeof l.path === 'string' ? samples(l.path) : [])),
    );
    expect(paths.length).toBeGreaterThan(200);
    let matched = 0;
    for (const path of [...new Set(paths), '/', '/api/v1', '/nothing']) {
      const runs = new Set(table.routersAt(table.startOf(path)));
      rs.forEach((r, i) => {
        if (!routeLayers(r).some((l) => l.regexp.test(path))) return;
        matched++;
        expect({ path, router: i, runs: runs.has(i) }).toEqual({ path, router: i, runs: true });
      });
    }
    expect(matched).toBeGreaterThan(200);
    // A fan's path runs none of the admin page's routers.
    const fan = table.routersAt(table.startOf('/livez')).length;
    expect(fan).toBeLessThan(4);
  });
});
