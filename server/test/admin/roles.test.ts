import { adminRouters } from '../../src/admin-wiring';
import { compOf, sessionChangesOf, transfersOf } from '../../src/per-app';
import { adminHarness, type AdminHarness } from './helpers';

/**
 * Every admin route, enumerated from the routers themselves so a new route cannot be forgotten:
 * without a token it answers 401; with a buyer's or a gate staff member's token, 403.
 */
let h: AdminHarness;
let routes: { method: string; path: string }[];

beforeAll(async () => {
  h = await adminHarness();
  routes = adminRouters({
    ...h.env.deps,
    sessionChanges: sessionChangesOf(h.env.deps),
    transfers: transfersOf(h.env.deps),
    comp: compOf(h.env.deps),
  })
    .flatMap((r) => r.stack.map((l) => ({ methods: l.methods, path: String(l.path) })))
    .filter(
      (l) => l.methods.length > 0 && l.path.startsWith('/api/v1/admin') && l.path !== '/api/v1/admin/login',
    )
    .map((l) => ({
      method: l.methods.find((m) => m !== 'HEAD')!,
      path: l.path.replace(/:(\w+)/g, (_: string, name: string) =>
        name === 'code' ? 'ABCDEFGH23' : name === 'orderNo' ? '1234567890' : '1',
      ),
    }));
});
afterAll(() => h.close());

describe('role checks on every admin route', () => {
  it('covers the routes of every domain', () => {
    const prefixes = new Set(routes.map((r) => r.path.split('/')[4]));
    for (const p of [
      'admins',
      'audit',
      'venues',
      'shows',
      'sessions',
      'dashboard',
      'orders',
      'staff',
      'uploads',
      'me',
      'logout',
      'risk',
      'comps',
    ])
      expect(prefixes).toContain(p);
    expect(routes.length).toBeGreaterThanOrEqual(35);
  });

  it('refuses requests without a token (401) and with buyer or staff tokens (403)', async () => {
    const fan = await h.api.tokenFor('1', ['fan']);
    const staff = await h.api.tokenFor('2', ['staff']);
    const wrong: string[] = [];
    for (const r of routes) {
      const body = r.method === 'GET' || r.method === 'DELETE' ? undefined : {};
      const none = await h.api.call(r.method, r.path, { body });
      if (none.status !== 401) wrong.push(`${r.method} ${r.path} without token: ${none.status}`);
      for (const [who, token] of [
        ['buyer', fan],
        ['staff', staff],
      ] as const) {
        const res = await h.api.call(r.method, r.path, { token, body });
        if (res.status !== 403 || res.body.error.code !== 'FORBIDDEN')
          wrong.push(`${r.method} ${r.path} as ${who}: ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps each admin role to its own pages', async () => {
    const op = h.as(await h.tokenWithRoles(['operator']));
    const sm = h.as(await h.tokenWithRoles(['staff_manager']));
    const status = async (call: ReturnType<AdminHarness['as']>, method: string, path: string) =>
      (await call(method, path)).status;
    // Operators: catalog, sales and orders, not staff or accounts.
    expect(await status(op, 'GET', '/api/v1/admin/orders')).toBe(200);
    expect(await status(op, 'GET', '/api/v1/admin/dashboard')).toBe(200);
    expect(await status(op, 'GET', '/api/v1/admin/staff')).toBe(403);
    expect(await status(op, 'GET', '/api/v1/admin/admins')).toBe(403);
    // Staff managers: staff and the show list, nothing else.
    expect(await status(sm, 'GET', '/api/v1/admin/staff')).toBe(200);
    expect(await status(sm, 'GET', '/api/v1/admin/shows')).toBe(200);
    for (const path of [
      '/api/v1/admin/orders',
      '/api/v1/admin/dashboard',
      '/api/v1/admin/venues',
      '/api/v1/admin/audit',
      '/api/v1/admin/admins',
      '/api/v1/admin/sessions/1',
    ]) {
      expect(await status(sm, 'GET', path)).toBe(403);
    }
    // Everyone signed in may see and end their own session.
    expect(await status(sm, 'GET', '/api/v1/admin/me')).toBe(200);
  });
});
