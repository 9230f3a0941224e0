import { request } from 'node:http';
import type { RowDataPacket } from 'mysql2/promise';
import { adminHarness, ADMIN_PASSWORD, type AdminHarness } from '../admin/helpers';
import { startNginx, type Nginx } from '../helpers/nginx';
import { tokenHash } from '../../src/auth/admin/service';

/**
 * Issue 12.5: behind a real nginx (deploy/nginx/showtix.conf.template) with TRUST_PROXY_HOPS=1,
 * the client address is the one nginx saw; what the client writes into X-Forwarded-For is not.
 * The client connects from 127.0.0.2, nginx reaches the server from 127.0.0.1.
 */
let h: AdminHarness;
let nginx: Nginx;
beforeAll(async () => {
  // TRUST_PROXY=true too: the old setting alone took the left-most (client-written) entry.
  h = await adminHarness({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '1', ADMIN_LOGIN_FAILS_MAX: '2' });
  nginx = await startNginx(new URL(h.api.url).host);
});
afterAll(async () => {
  await nginx?.close();
  await h.close();
});

function login(password: string, forwardedFor?: string): Promise<{ status: number; body: any }> {
  const body = JSON.stringify({ username: 'root', password });
  return new Promise((resolve, reject) => {
    const req = request(
      `${nginx.url}/api/v1/admin/login`,
      {
        method: 'POST',
        localAddress: '127.0.0.2',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

it('records the address nginx saw, not the one the client wrote', async () => {
  const r = await login(ADMIN_PASSWORD, '6.6.6.6');
  expect(r.status).toBe(200);
  const [[row]] = await h.env.deps.db.query<RowDataPacket[]>(
    'SELECT ip FROM admin_sessions WHERE token_hash = ?',
    [tokenHash(r.body.token)],
  );
  expect(row!.ip).toBe('127.0.0.2');
});

it('a forged X-Forwarded-For per guess does not escape the login limit', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await login(`wrong-${i}`, `10.9.8.${i}`)).status);
  expect(statuses).toEqual([401, 401, 429, 429]);
});
