import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { closeDeps, createDeps, type AppDeps } from '../../src/wiring';
import { adminHarness, type AdminHarness } from '../admin/helpers';
import type { TestEnv } from '../helpers/env';
import { startTestServer, type TestServer } from '../helpers/http';

let h: AdminHarness; // instance A: the organiser uploads here
let b: AppDeps; // instance B: another machine, with a disk of its own
let bApi: TestServer;
const bDisk = mkdtempSync(path.join(tmpdir(), 'showtix-b-'));

beforeAll(async () => {
  h = await adminHarness();
  const config = { ...h.env.config, admin: { ...h.env.config.admin, dataDir: bDisk } };
  b = await createDeps(config, { clock: h.env.clock, log: pino({ level: 'silent' }) });
  bApi = await startTestServer({ ...h.env, deps: b } as TestEnv);
});
afterAll(async () => {
  await bApi.close();
  await closeDeps(b);
  await h.close();
  rmSync(bDisk, { recursive: true, force: true });
});

const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(300, 9),
]);

const upload = () =>
  fetch(`${h.api.url}/api/v1/admin/uploads/poster`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.root}`, 'content-type': 'image/png' },
    body: png,
  });

describe('posters in shared storage', () => {
  it('a poster uploaded on one instance is served by another, with long cache headers', async () => {
    const up = await upload();
    expect(up.status).toBe(201);
    const { url } = (await up.json()) as { url: string };
    const got = await fetch(bApi.url + url);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(png)).toBe(true);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = got.headers.get('etag')!;
    expect(etag).toContain(url.split('/').pop());
    const again = await fetch(bApi.url + url, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('the same picture uploaded twice is stored once (named by its content hash)', async () => {
    const first = (await (await upload()).json()) as { url: string };
    const second = (await (await upload()).json()) as { url: string };
    expect(second.url).toBe(first.url);
    const [rows] = await h.env.deps.db.query('SELECT COUNT(*) n FROM posters WHERE name = ?', [
      first.url.split('/').pop(),
    ]);
    expect(Number((rows as { n: number }[])[0]!.n)).toBe(1);
    expect((await bApi.call('GET', '/media/posters/0123456789abcdef0123456789abcdef.png')).status).toBe(404);
  });
});
