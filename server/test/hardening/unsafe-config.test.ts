import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';

/** Issue 12.4: start-up refuses unsafe configuration, naming every variable at once. */
const SIM = path.resolve(__dirname, '../../../wechat-sim/test-keys');

/** A complete production configuration (files are only read later, by createDeps). */
const PROD = {
  NODE_ENV: 'production',
  AUTH_SECRET: 'a'.repeat(40),
  ID_SECRET: 'b'.repeat(40),
  TICKET_KEY_SECRET: 'c'.repeat(40),
  WECHAT_APPID: 'wx0123456789abcdef',
  WECHAT_APP_SECRET: 'app-secret',
  WECHAT_MCHID: '1900000001',
  WECHAT_MCH_SERIAL: 'ABCDEF0123',
  WECHAT_MCH_KEY_PATH: '/etc/showtix/apiclient_key.pem',
  WECHAT_MCH_CERT_PATH: '/etc/showtix/apiclient_cert.pem',
  WECHAT_APIV3_KEY: 'k'.repeat(32),
  WECHAT_PAY_PUBLIC_KEY_PATH: '/etc/showtix/pub_key.pem',
  WECHAT_PAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_0001',
  WECHAT_API_BASE: 'https://api.weixin.qq.com',
  WECHAT_PAY_API_BASE: 'https://api.mch.weixin.qq.com',
  PUBLIC_BASE_URL: 'https://tickets.example.com',
  WECHAT_TEMPLATE_PAID: 'tplPaid0123456789abcdefghijklmnopqrstuvwxyzA',
  WECHAT_TEMPLATE_TICKETED: 'tplTicketed0123456789abcdefghijklmnopqrstuv',
  WECHAT_TEMPLATE_REFUND: 'tplRefund0123456789abcdefghijklmnopqrstuvwx',
  WECHAT_TEMPLATE_WAITING_LIST_OFFER: 'tplWaiting0123456789abcdefghijklmnopqrstuvw',
  WECHAT_TEMPLATE_SESSION_CHANGED: 'tplChanged0123456789abcdefghijklmnopqrstuvw',
  WECHAT_TEMPLATE_REMINDER: 'tplReminder0123456789abcdefghijklmnopqrstuv',
  WECHAT_TEMPLATE_SALE_OPEN: 'tplSaleOpen0123456789abcdefghijklmnopqrstuv',
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

it('with NODE_ENV unset and no secrets, lists every missing variable', () => {
  const p = problems({}).join('\n');
  for (const name of [
    'AUTH_SECRET',
    'ID_SECRET',
    'TICKET_KEY_SECRET',
    'WECHAT_APPID',
    'WECHAT_APP_SECRET',
    'WECHAT_MCHID',
    'WECHAT_APIV3_KEY',
    'WECHAT_API_BASE',
    'PUBLIC_BASE_URL',
  ])
    expect(p).toContain(name);
});

it('warms an instance up in production unless told otherwise (http/warm-up.ts)', () => {
  expect(loadConfig(PROD).warmUpRequests).toBe(3_000);
  expect(loadConfig({ ...PROD, WARM_UP_REQUESTS: '0' }).warmUpRequests).toBe(0);
});

it('production needs a public https PUBLIC_BASE_URL', () => {
  expect(problems(PROD)).toEqual([]);
  const { PUBLIC_BASE_URL: _, ...noUrl } = PROD;
  expect(problems(noUrl).join()).toMatch(/PUBLIC_BASE_URL/);
  expect(problems({ ...PROD, PUBLIC_BASE_URL: 'http://tickets.example.com' }).join()).toMatch(
    /PUBLIC_BASE_URL/,
  );
});

it("never loads the simulator's keys in production", () => {
  expect(problems({ ...PROD, WECHAT_SIM_KEYS_DIR: SIM }).join()).toMatch(/WECHAT_SIM_KEYS_DIR/);
  expect(problems({ ...PROD, WECHAT_MCH_KEY_PATH: path.join(SIM, 'apiclient_key.pem') }).join()).toMatch(
    /TEST-ONLY/,
  );
  expect(problems({ ...PROD, WECHAT_PAY_PUBLIC_KEY_PATH: path.join(SIM, 'pub_key.pem') }).join()).toMatch(
    /TEST-ONLY/,
  );
});

it('serves the H5 build at / only in development and test, unless asked for', () => {
  expect(loadConfig(PROD).serveH5).toBe(false);
  expect(loadConfig({ ...PROD, SERVE_H5: 'true' }).serveH5).toBe(true);
  expect(loadConfig({ NODE_ENV: 'development' }).serveH5).toBe(true);
});

it('a fresh start with NODE_ENV unset and no secrets exits non-zero with the list', () => {
  const r = spawnSync(process.execPath, [path.resolve(__dirname, '../../dist/main.js')], {
    // Nothing but a database that is not there: the process must stop before it is needed.
    env: {
      PATH: process.env.PATH,
      MYSQL_URL: 'mysql://root@127.0.0.1:1/none',
      REDIS_URL: 'redis://127.0.0.1:1',
    },
    encoding: 'utf8',
    timeout: 90_000,
  });
  expect(r.status).not.toBe(0);
  expect(r.status).not.toBeNull();
  for (const name of ['AUTH_SECRET', 'ID_SECRET', 'TICKET_KEY_SECRET', 'WECHAT_APPID', 'PUBLIC_BASE_URL'])
    expect(r.stderr).toContain(name);
}, 120_000);
