import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestEnv, type TestEnv } from './helpers/env';
import { startTestServer, type TestServer } from './helpers/http';

let env: TestEnv;
let api: TestServer;
const dir = mkdtempSync(path.join(tmpdir(), 'h5-'));

beforeAll(async () => {
  mkdirSync(path.join(dir, 'js'));
  writeFileSync(path.join(dir, 'index.html'), '<html>fan app</html>');
  writeFileSync(path.join(dir, 'js/app.0123abcd89.js'), 'console.log(1)');
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
