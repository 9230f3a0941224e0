import { adminHarness, ADMIN_PASSWORD, auditRows, type AdminHarness } from './helpers';

let h: AdminHarness;

beforeAll(async () => {
  h = await adminHarness({
    ADMIN_LOGIN_FAILS_MAX: '3',
    ADMIN_SESSION_IDLE_MIN: '30',
    ADMIN_SESSION_MAX_H: '2',
  });
});
afterAll(async () => {
  await h.close();
});

describe('admin login', () => {
  it('creates the first admin from ADMIN_USERNAME / ADMIN_PASSWORD, hashed with argon2id', async () => {
    const [rows] = await h.env.deps.db.query<any[]>('SELECT username, password_hash, roles FROM admin_users');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ username: 'root', roles: 'admin' });
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(rows[0].password_hash).not.toContain(ADMIN_PASSWORD);
    expect(await auditRows(h, 'admin.bootstrap')).toHaveLength(1);
  });

  it('answers a token and the account; the token works on /me', async () => {
    const r = await h.api.call('POST', '/api/v1/admin/login', {
      body: { username: 'root', password: ADMIN_PASSWORD },
    });
    expect(r.status).toBe(200);
    expect(r.body.admin).toMatchObject({ username: 'root', roles: ['admin'], disabled: false });
    expect(Date.parse(r.body.expiresAt) - h.env.clock.now().getTime()).toBe(2 * 3_600_000);
    const me = await h.as(r.body.token)('GET', '/api/v1/admin/me');
    expect(me.body).toMatchObject({ username: 'root' });
  });

  it('refuses a wrong password or unknown name the same way, and validates the body', async () => {
    const wrong = await h.api.call('POST', '/api/v1/admin/login', {
      body: { username: 'root', password: 'nope' },
    });
    const unknown = await h.api.call('POST', '/api/v1/admin/login', {
      body: { username: 'ghost', password: 'nope' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    const bad = await h.api.call('POST', '/api/v1/admin/login', { body: { username: 'root' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('rate-limits failed logins per name and address, even with the right password afterwards', async () => {
    await h.as(h.root)('POST', '/api/v1/admin/admins', {
      username: 'victim',
      password: ADMIN_PASSWORD,
      roles: ['operator'],
    });
    for (let i = 0; i < 3; i++) {
      const r = await h.api.call('POST', '/api/v1/admin/login', {
        body: { username: 'victim', password: `guess${i}` },
      });
      expect(r.status).toBe(401);
    }
    const blocked = await h.api.call('POST', '/api/v1/admin/login', {
      body: { username: 'victim', password: ADMIN_PASSWORD },
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account from the same address is not locked by it.
    expect(
      (
        await h.api.call('POST', '/api/v1/admin/login', {
          body: { username: 'root', password: ADMIN_PASSWORD },
        })
      ).status,
    ).toBe(200);
  });

  it('a successful login clears the failures of that name', async () => {
    await h.as(h.root)('POST', '/api/v1/admin/admins', {
      username: 'forgetful',
      password: ADMIN_PASSWORD,
      roles: ['operator'],
    });
    for (let i = 0; i < 2; i++)
      await h.api.call('POST', '/api/v1/admin/login', { body: { username: 'forgetful', password: 'x' } });
    await h.login('forgetful');
    for (let i = 0; i < 2; i++)
      await h.api.call('POST', '/api/v1/admin/login', { body: { username: 'forgetful', password: 'x' } });
    expect(await h.login('forgetful')).toBeTruthy();
  });
});

describe('admin sessions', () => {
  it('expire after idle time and at the hard limit', async () => {
    const token = await h.login();
    const me = () => h.as(token)('GET', '/api/v1/admin/me');
    h.env.clock.advance(29 * 60_000);
    expect((await me()).status).toBe(200); // touched: idle time starts again
    h.env.clock.advance(29 * 60_000);
    expect((await me()).status).toBe(200);
    h.env.clock.advance(31 * 60_000);
    const idle = await me();
    expect(idle.status).toBe(401);
    expect(idle.body.error.message).toBe('登录已过期，请重新登录');

    const t2 = await h.login();
    for (let i = 0; i < 5; i++) {
      h.env.clock.advance(25 * 60_000);
      expect((await h.as(t2)('GET', '/api/v1/admin/me')).status).toBe(i < 4 ? 200 : 401); // 2 h limit
    }
  });

  it('end at logout', async () => {
    const token = await h.login();
    expect((await h.as(token)('POST', '/api/v1/admin/logout')).status).toBe(204);
    expect((await h.as(token)('GET', '/api/v1/admin/me')).status).toBe(401);
    expect((await auditRows(h, 'auth.logout')).length).toBeGreaterThan(0);
  });

  it('refuse fan and staff tokens with 403 and garbage with 401', async () => {
    const fan = await h.api.tokenFor('1', ['fan']);
    const staff = await h.api.tokenFor('1', ['staff']);
    const forged = await h.api.tokenFor('1', ['admin']); // a platform token without an admin session
    for (const t of [fan, staff, forged]) {
      const r = await h.as(t)('GET', '/api/v1/admin/venues');
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('FORBIDDEN');
    }
    expect((await h.as('not.a.token')('GET', '/api/v1/admin/venues')).status).toBe(401);
    expect((await h.api.call('GET', '/api/v1/admin/venues')).status).toBe(401);
  });
});

describe('admin accounts', () => {
  // The session tests above moved the clock past the first token's lifetime.
  let root: string;
  beforeEach(async () => {
    root = await h.login();
  });

  it('only admins manage accounts; changes are audited without the password', async () => {
    const operator = await h.tokenWithRoles(['operator']);
    expect((await h.as(operator)('GET', '/api/v1/admin/admins')).status).toBe(403);
    const created = await h.as(root)('POST', '/api/v1/admin/admins', {
      username: 'ops1',
      displayName: '运营一号',
      password: ADMIN_PASSWORD,
      roles: ['operator'],
    });
    expect(created.status).toBe(201);
    const dup = await h.as(root)('POST', '/api/v1/admin/admins', {
      username: 'ops1',
      password: ADMIN_PASSWORD,
      roles: ['operator'],
    });
    expect(dup.status).toBe(400);
    const short = await h.as(root)('POST', '/api/v1/admin/admins', {
      username: 'ops2',
      password: 'short',
      roles: ['operator'],
    });
    expect(short.body.error.code).toBe('VALIDATION_FAILED');
    const [entry] = (await auditRows(h, 'admin.create')).filter((r) => r.entity_id === created.body.id);
    expect(entry!.actor).toBe('root');
    expect(entry!.after_json).not.toContain(ADMIN_PASSWORD);
  });

  it('a role change or disabling ends the sessions of the account at once', async () => {
    await h.as(root)('POST', '/api/v1/admin/admins', {
      username: 'ops3',
      password: ADMIN_PASSWORD,
      roles: ['operator'],
    });
    const token = await h.login('ops3');
    const list = await h.as(root)('GET', '/api/v1/admin/admins');
    const id = list.body.items.find((a: { username: string }) => a.username === 'ops3').id;
    expect(
      (await h.as(root)('PATCH', `/api/v1/admin/admins/${id}`, { roles: ['staff_manager'] })).status,
    ).toBe(200);
    expect((await h.as(token)('GET', '/api/v1/admin/me')).status).toBe(401);
    const t2 = await h.login('ops3');
    expect((await h.as(t2)('GET', '/api/v1/admin/venues')).status).toBe(403); // staff managers do not build venues
    await h.as(root)('PATCH', `/api/v1/admin/admins/${id}`, { disabled: true });
    expect((await h.as(t2)('GET', '/api/v1/admin/me')).status).toBe(401);
    expect(
      (
        await h.api.call('POST', '/api/v1/admin/login', {
          body: { username: 'ops3', password: ADMIN_PASSWORD },
        })
      ).status,
    ).toBe(401);
    const entries = (await auditRows(h, 'admin.update')).filter((r) => r.entity_id === id);
    expect(JSON.parse(entries[0]!.before_json).roles).toEqual(['operator']);
    expect(JSON.parse(entries[0]!.after_json).roles).toEqual(['staff_manager']);
  });

  it('an admin cannot disable themselves', async () => {
    const me = await h.as(root)('GET', '/api/v1/admin/me');
    const r = await h.as(root)('PATCH', `/api/v1/admin/admins/${me.body.id}`, { disabled: true });
    expect(r.status).toBe(400);
  });
});
