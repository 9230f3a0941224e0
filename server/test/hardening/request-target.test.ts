import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createOpsApp } from '../../src/app';
import { serverForFile } from '../helpers/http';

/**
 * A request target that names no path (absolute-form without one) is the client's mistake: a
 * clear 400 with the API's error body, not the bare 500 it got when Koa's ctx.path was null and
 * the middleware before the error middleware threw on it.
 */
const t = serverForFile();

/** Sends one request line as written (no client library would send these) and reads the answer. */
function raw(line: string, url = t.api.url): Promise<{ status: number; head: string; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(u.port), u.hostname, () =>
      s.write(`${line}\r\nHost: x\r\nX-Request-Id: target-test-0001\r\nConnection: close\r\n\r\n`),
    );
    let out = '';
    s.on('data', (c: Buffer) => (out += c.toString()));
    s.on('end', () => {
      const [head = '', body = ''] = out.split('\r\n\r\n');
      resolve({ status: Number(head.slice(9, 12)), head: head.toLowerCase(), body });
    });
    s.on('error', reject);
  });
}

it.each(['GET http:// HTTP/1.1', 'GET h://a HTTP/1.1', 'POST http:// HTTP/1.1', 'POST h://a HTTP/1.1'])(
  'answers %s with 400 and the error body',
  async (line) => {
    const a = await raw(line);
    expect(a.status).toBe(400);
    expect(JSON.parse(a.body)).toEqual({ error: { code: 'VALIDATION_FAILED', message: '请求地址无效' } });
    expect(a.head).toContain('x-request-id: target-test-0001');
    expect(a.head).toContain('content-type: application/json');
  },
);

it('still answers targets with a path as before', async () => {
  expect((await raw('GET http://x/livez HTTP/1.1')).status).toBe(200);
  expect((await raw('GET /livez HTTP/1.1')).status).toBe(200);
  const star = await raw('OPTIONS * HTTP/1.1');
  expect(star.status).toBe(404);
  expect(JSON.parse(star.body).error.code).toBe('NOT_FOUND');
});

it("answers it on a worker's ops port (METRICS_PORT) without a server fault", async () => {
  const ops = createOpsApp(t.env.deps).listen(0, '127.0.0.1');
  await new Promise((r) => ops.once('listening', r));
  try {
    const url = `http://127.0.0.1:${(ops.address() as AddressInfo).port}`;
    const a = await raw('GET http:// HTTP/1.1', url);
    expect(a.status).toBe(404);
    expect(JSON.parse(a.body).error.code).toBe('NOT_FOUND');
    expect((await raw('GET /livez HTTP/1.1', url)).status).toBe(200);
  } finally {
    ops.closeAllConnections();
    await new Promise((r) => ops.close(r));
  }
});
