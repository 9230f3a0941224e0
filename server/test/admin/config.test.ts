import { DEV_ADMIN_PASSWORD, loadAdminConfig } from '../../src/config/admin';
import { loadConfig } from '../../src/config';

describe('admin configuration', () => {
  it('has no default password in production', () => {
    const c = loadAdminConfig({}, 'production');
    expect(c.bootstrapPassword).toBeUndefined();
    expect(c.bootstrapIsDefault).toBe(false);
  });

  it('uses a flagged development default elsewhere, and ADMIN_PASSWORD when given', () => {
    expect(loadAdminConfig({}, 'development')).toMatchObject({
      bootstrapPassword: DEV_ADMIN_PASSWORD,
      bootstrapIsDefault: true,
      bootstrapUsername: 'admin',
    });
    expect(
      loadAdminConfig({ ADMIN_USERNAME: 'boss', ADMIN_PASSWORD: 'a-long-secret' }, 'production'),
    ).toMatchObject({
      bootstrapUsername: 'boss',
      bootstrapPassword: 'a-long-secret',
      bootstrapIsDefault: false,
    });
  });

  it('refuses a short ADMIN_PASSWORD and bad numbers, through the app configuration', () => {
    expect(() => loadConfig({ ADMIN_PASSWORD: 'short' })).toThrow(/ADMIN_PASSWORD/);
    expect(() => loadConfig({ ADMIN_SESSION_IDLE_MIN: '0' })).toThrow(/ADMIN_SESSION_IDLE_MIN/);
    expect(loadConfig({ NODE_ENV: 'development' }).admin.sessionIdleMs).toBe(30 * 60_000);
  });
});
