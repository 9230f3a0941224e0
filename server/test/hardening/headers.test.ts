import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminHarness, type AdminHarness } from '../admin/helpers';

/** Issue 12.7: security headers on every kind of response; /metrics behind a token; ADMIN_HOST. */
const dir = mkdtempSync(path.join(tmpdir(), 'showtix-headers-'));
const h5 = path.join(dir, 'h5');
const adminDist = path.join(dir, 'admin');
const METRICS_TOKEN = 'metrics-token-0123456789';
let h: AdminHarness;
beforeAll(async () => {
  mkdirSync(h5);
  mkdirSync(adminDist);
  writeFileSync(path.join(h5, 'index.html'), '<html>fan app</html>');
  writeFileSync(path.join(adminDist, 'index.html'), '<html>admin page</html>');
  h = await adminHarness({ H5_DIR: h5, ADMIN_DIST_DIR: adminDist, METRICS_TOKEN, ADMIN_HOST: 'admin.test' });
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(p: string, headers: Record<string, string> = {}): Promise<Answer> {
  const u = new URL(h.api.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: p, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.once('error', reject);
    req.end();
  });
}

function expectHardened(a: Answer): void {
  expect(a.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  expect(a.headers['x-frame-options']).toBe('DENY');
  expect(a.headers['x-content-type-options']).toBe('nosniff');
  expect(a.headers['referrer-policy']).toBeDefined();
}

it('sets them on API JSON, errors, the admin page, the H5 app and posters', async () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  const uploaded = await fetch(`${h.api.url}/api/v1/admin/uploads/poster`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.root}`, 'content-type': 'image/png' },
    body: png,
  });
  expect(uploaded.status).toBe(201);
  const poster = ((await uploaded.json()) as { url: string }).url;
  const answers = {
    api: await get('/api/v1/shows'),
    livez: await get('/livez'),
    notFound: await get('/api/v1/nope'),
    unauthorized: await get('/api/v1/orders'),
    admin: await get('/admin/', { host: 'admin.test' }),
    h5: await get('/'),
    poster: await get(poster),
  };
  expect(answers.api.status).toBe(200);
  expect(answers.notFound.status).toBe(404);
  expect(answers.unauthorized.status).toBe(401);
  expect(answers.admin.body).toContain('admin page');
  expect(answers.h5.body).toContain('fan app');
  expect(answers.poster.status).toBe(200);
  for (const a of Object.values(answers)) expectHardened(a);
  expect(answers.api.headers['content-security-policy']).toMatch(/default-src 'none'/);
  // The probes answer JSON with the API's policy, not a page's.
  expect(answers.livez.status).toBe(200);
  expect(answers.livez.headers['content-security-policy']).toMatch(/default-src 'none'/);
});

it('serves the admin page on ADMIN_HOST only, and the H5 app never there', async () => {
  expect((await get('/admin/')).status).toBe(404);
  expect((await get('/', { host: 'admin.test' })).status).toBe(404);
  expect((await get('/api/v1/shows', { host: 'admin.test' })).status).toBe(200);
});

it('keeps /metrics behind its token', async () => {
  expect((await get('/metrics')).status).toBe(401);
  expect((await get('/metrics', { authorization: 'Bearer wrong-token-000000000' })).status).toBe(401);
  const ok = await get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
  expect(ok.status).toBe(200);
  expect(ok.body).toContain('http_request_duration_seconds');
});
