import { adminHarness, ADMIN_PASSWORD, type AdminHarness } from '../admin/helpers';

/** Issue 12.2: the failed-login limit holds when the guesses arrive all at once. */
describe('admin login limit under parallel guesses', () => {
  let h: AdminHarness;
  beforeAll(async () => {
    h = await adminHarness({ ADMIN_LOGIN_FAILS_MAX: '5' });
  });
  afterAll(async () => {
    await h.close();
  });

  it('lets at most 5 of 40 parallel wrong passwords reach the password check', async () => {
    await h.as(h.root)('POST', '/api/v1/admin/admins', {
      username: 'target',
      password: ADMIN_PASSWORD,
      roles: ['operator'],
    });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        h.api.call('POST', '/api/v1/admin/login', { body: { username: 'target', password: `wrong-${i}` } }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(35);
    // Locked now, even with the right password.
    const right = await h.api.call('POST', '/api/v1/admin/login', {
      body: { username: 'target', password: ADMIN_PASSWORD },
    });
    expect(right.status).toBe(429);
  });
});
