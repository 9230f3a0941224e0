import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adminHarness, type AdminHarness } from './helpers';

const dist = mkdtempSync(path.join(tmpdir(), 'showtix-admin-dist-'));
mkdirSync(path.join(dist, 'assets'));
writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><title>票务管理后台</title><div id="root"></div>',
);
writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
const BIG_JS = Array.from({ length: 300 }, (_, i) => `export const row${i} = ${i};`).join('\n');
writeFileSync(path.join(dist, 'assets', 'orders-def456.js'), BIG_JS);
// What the admin build runs after Vite's (admin/package.json): brotli and gzip copies beside.
execFileSync(process.execPath, [path.join(__dirname, '../../../scripts/precompress.mjs'), dist]);

let h: AdminHarness;

beforeAll(async () => {
  h = await adminHarness({ ADMIN_DIST_DIR: dist, POSTER_MAX_BYTES: '2048' });
});
afterAll(async () => {
  await h?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('audit log', () => {
  it('lists entries newest first, filtered, for operators and admins only', async () => {
    const op = h.as(await h.tokenWithRoles(['operator']));
    await op('POST', '/api/v1/admin/venues', { name: '审计场馆', zones: [{ name: 'z', capacity: 1 }] });
    const all = await op('GET', '/api/v1/admin/audit?pageSize=5');
    expect(all.status).toBe(200);
    expect(all.body.items[0]).toMatchObject({
      action: 'venue.create',
      entityType: 'venue',
      actor: expect.stringMatching(/^user/),
    });
    expect(all.body.items[0].after).toMatchObject({ name: '审计场馆' });
    expect(all.body.total).toBeGreaterThanOrEqual(3);
    const venues = await op('GET', '/api/v1/admin/audit?entityType=venue');
    expect(venues.body.items.every((e: { entityType: string }) => e.entityType === 'venue')).toBe(true);
    expect((await op('GET', '/api/v1/admin/audit?entityType=DROP%20TABLE')).status).toBe(400);
    const sm = h.as(await h.tokenWithRoles(['staff_manager']));
    expect((await sm('GET', '/api/v1/admin/audit')).status).toBe(403);
  });
});

describe('the admin page and posters', () => {
  it('serves the built page under /admin with history fallback, assets cached, /api untouched', async () => {
    for (const p of ['/admin', '/admin/', '/admin/orders/123']) {
      const r = await h.api.call('GET', p);
      expect(r.status).toBe(200);
      expect(String(r.body)).toContain('票务管理后台');
      expect(r.headers.get('cache-control')).toBe('no-cache');
    }
    const asset = await h.api.call('GET', '/admin/assets/index-abc123.js');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await h.api.call('GET', '/admin/assets/missing.js')).status).toBe(404);
    // The build's compressed copy to a client that takes one (fetch asks for br and gzip).
    const big = await h.api.call('GET', '/admin/assets/orders-def456.js');
    expect(['br', 'gzip']).toContain(big.headers.get('content-encoding'));
    expect(big.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(String(big.body)).toBe(BIG_JS);
    expect((await h.api.call('GET', '/admin/../package.json')).status).toBe(404);
    const api = await h.api.call('GET', '/api/v1/nothing-here');
    expect(api.body.error.code).toBe('NOT_FOUND');
  });

  it('stores an uploaded poster by content and serves it', async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(100, 7),
    ]);
    const up = await fetch(`${h.api.url}/api/v1/admin/uploads/poster`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.root}`, 'content-type': 'image/png' },
      body: png,
    });
    expect(up.status).toBe(201);
    const { url } = (await up.json()) as { url: string };
    expect(url).toMatch(/^\/media\/posters\/[0-9a-f]{32}\.png$/);
    const got = await fetch(h.api.url + url);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(png)).toBe(true);
    const text = await fetch(`${h.api.url}/api/v1/admin/uploads/poster`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.root}`, 'content-type': 'image/png' },
      body: 'not an image',
    });
    expect(text.status).toBe(400);
    const big = await fetch(`${h.api.url}/api/v1/admin/uploads/poster`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.root}`, 'content-type': 'image/png' },
      body: Buffer.concat([png, Buffer.alloc(4096)]),
    });
    expect(big.status).toBe(413);
    const fan = await fetch(`${h.api.url}/api/v1/admin/uploads/poster`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await h.api.tokenFor('1')}`, 'content-type': 'image/png' },
      body: png,
    });
    expect(fan.status).toBe(403);
    expect((await h.api.call('GET', '/media/posters/nope.png')).status).toBe(404);
  });
});
