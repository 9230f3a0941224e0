import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createTestEnv, type TestEnv } from './helpers/env';
import { startTestServer, type TestServer } from './helpers/http';

let env: TestEnv;
let api: TestServer;
const dir = mkdtempSync(path.join(tmpdir(), 'h5-'));
const BIG_JS = Array.from(
  { length: 400 },
  (_, i) => `export const seat${i} = { row: ${i % 30}, n: ${i} };`,
).join('\n');

/** A GET as sent (no decompression): status, headers, body bytes. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const req = request(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    },
  );
}

beforeAll(async () => {
  mkdirSync(path.join(dir, 'js'));
  writeFileSync(path.join(dir, 'index.html'), '<html>fan app</html>');
  writeFileSync(path.join(dir, 'js/app.0123abcd89.js'), 'console.log(1)');
  writeFileSync(path.join(dir, 'js/seatmap.4567cdef01.js'), BIG_JS);
  // What the H5 build runs after Taro's (client/scripts/taro-build.mjs).
  execFileSync(process.execPath, [path.join(__dirname, '../../scripts/precompress.mjs'), dir]);
  env = await createTestEnv({ H5_DIR: dir });
  api = await startTestServer(env);
});
afterAll(async () => {
  await api.close();
  await env.close();
  rmSync(dir, { recursive: true });
});

it('serves the H5 build at the root without shadowing the API', async () => {
  const index = await fetch(`${api.url}/`);
  expect(index.status).toBe(200);
  expect(await index.text()).toContain('fan app');
  const js = await fetch(`${api.url}/js/app.0123abcd89.js`);
  expect(js.headers.get('cache-control')).toContain('immutable');
  expect((await fetch(`${api.url}/js/missing.js`)).status).toBe(404);
  expect((await fetch(`${api.url}/../package.json`)).status).toBe(404);
  expect((await api.call('GET', '/api/v1/shows')).status).toBe(200);
  expect((await api.call('GET', '/api/v1/nope')).body.error.code).toBe('NOT_FOUND');
});

it('sends the build’s brotli or gzip copy to a client that takes it, and the file to one that does not', async () => {
  expect(existsSync(path.join(dir, 'js/seatmap.4567cdef01.js.br'))).toBe(true);
  expect(existsSync(path.join(dir, 'js/app.0123abcd89.js.br'))).toBe(false); // too small to gain
  const url = `${api.url}/js/seatmap.4567cdef01.js`;
  const br = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br' });
  expect(br.status).toBe(200);
  expect(br.headers['content-encoding']).toBe('br');
  expect(String(br.headers['vary'])).toMatch(/accept-encoding/i);
  expect(String(br.headers['content-type'])).toMatch(/javascript/);
  expect(br.body.length).toBeLessThan(BIG_JS.length / 4);
  expect(brotliDecompressSync(br.body).toString()).toBe(BIG_JS);

  const gz = await rawGet(url, { 'accept-encoding': 'gzip' });
  expect(gz.headers['content-encoding']).toBe('gzip');
  expect(gunzipSync(gz.body).toString()).toBe(BIG_JS);

  const plain = await rawGet(url, {});
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(String(plain.headers['vary'])).toMatch(/accept-encoding/i);
  expect(plain.body.toString()).toBe(BIG_JS);
});
