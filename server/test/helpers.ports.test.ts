import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestEnv, step, type TestEnv } from './helpers/env';
import { reservedServer, startTestServer } from './helpers/http';
import { createPayEnv } from './helpers/pay-env';

/**
 * The test servers' ports. A pay environment names its API's port in its configuration (the
 * notify URL) before the app exists; it used to find a port free, close it, set up the
 * environment (migrations: seconds), then listen; another socket could take the port meanwhile,
 * and listen failed with no one listening for the error: the likely cause of a CI run's
 * beforeAll that hung until its 60 s timeout (that run's log, cut short, shows the timeout
 * only). The port is now held from the start, and a failed listen rejects.
 */
const listen = (s: Server, port: number) =>
  new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => resolve());
  });

it('a reserved port cannot be taken by another server before the app answers on it', async () => {
  const { server, port } = await reservedServer();
  const other = createServer();
  try {
    await expect(listen(other, port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
  } finally {
    await new Promise((r) => server.close(r));
  }
});

describe('with an environment', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(() => env.close());

  it('the app answers on the server reserved for it', async () => {
    const { server, port } = await reservedServer();
    const api = await startTestServer(env, server);
    try {
      expect(api.url).toBe(`http://127.0.0.1:${port}`);
      expect((await api.call('GET', '/livez')).status).toBe(200);
    } finally {
      await api.close();
    }
  });

  it('a port already taken fails the start at once instead of hanging', async () => {
    const taken = createServer();
    await listen(taken, 0);
    try {
      const port = (taken.address() as AddressInfo).port;
      await expect(startTestServer(env, port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await new Promise((r) => taken.close(r));
    }
  }, 10_000);
});

it("a pay environment's API is on the port its notify URL names", async () => {
  const p = await createPayEnv();
  try {
    expect(p.config.wechat.publicBaseUrl).toBe(p.api.url);
    expect((await p.api.call('GET', '/livez')).status).toBe(200);
  } finally {
    await p.close();
  }
});

it('a set-up step that hangs fails naming itself, and one that finishes leaves no timer', async () => {
  await expect(step('the thing', new Promise(() => undefined), 50)).rejects.toThrow(
    'test set-up: the thing did not finish in 50 ms',
  );
  await expect(step('quick', Promise.resolve(7))).resolves.toBe(7); // jest would see its 30 s timer
});
