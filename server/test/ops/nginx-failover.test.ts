import { createServer, request, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startNginx, type Nginx } from '../helpers/nginx';

/**
 * deploy/nginx/showtix-cluster.conf.template, as it is, in front of two API instances, the first
 * of which dies with every request it has read (as a process killed by kill -9 mid-purchase).
 * A POST that carries an Idempotency-Key is safe to send again (the server answers a repeated key
 * with the first attempt's order), so nginx sends it to the next instance: the fan gets an answer,
 * not a 502. A POST without a key has no such guarantee and is never sent twice.
 */
let dying: TcpServer;
let alive: Server;
let nginx: Nginx;
const seen: { key: string | undefined; body: string }[] = [];

beforeAll(async () => {
  dying = createTcpServer((socket) => socket.once('data', () => socket.destroy()));
  alive = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ key: req.headers['idempotency-key'] as string | undefined, body });
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"orderNo":"1"}');
    });
  });
  await new Promise<void>((r) => dying.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => alive.listen(0, '127.0.0.1', r));
  const port = (s: TcpServer | Server) => (s.address() as AddressInfo).port;
  nginx = await startNginx([`127.0.0.1:${port(dying)}`, `127.0.0.1:${port(alive)}`]);
});
afterAll(async () => {
  await nginx?.close();
  await new Promise((r) => dying.close(r));
  alive.closeAllConnections();
  await new Promise((r) => alive.close(r));
});

function post(key?: string, base = nginx.url, path = '/api/v1/orders'): Promise<number> {
  const body = JSON.stringify({ sessionId: 1, seatIds: [1] });
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...(key ? { 'idempotency-key': key } : {}),
        },
      },
      (res) => (res.resume(), res.once('end', () => resolve(res.statusCode!))),
    );
    req.once('error', reject);
    req.end(body);
  });
}

it('a keyed purchase whose instance dies mid-request is answered by the next instance', async () => {
  // nginx starts its round robin at the first server, the dying one: each keyed POST that lands
  // there is sent on, with its key and body intact.
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push(await post(`k-${i}-0123456789abcdef`));
  expect(statuses).toEqual([201, 201, 201, 201]);
  expect(seen.map((s) => s.key)).toEqual([0, 1, 2, 3].map((i) => `k-${i}-0123456789abcdef`));
  expect(seen.every((s) => s.body === '{"sessionId":1,"seatIds":[1]}')).toBe(true);
});

/** One POST through a fresh nginx, whose round robin starts at the dying instance (as above). */
async function firstTry(path: string, key?: string): Promise<number> {
  const port = (srv: TcpServer | Server) => (srv.address() as AddressInfo).port;
  const fresh = await startNginx([`127.0.0.1:${port(dying)}`, `127.0.0.1:${port(alive)}`]);
  try {
    return await post(key, fresh.url, path);
  } finally {
    await fresh.close();
  }
}

it('a POST without a key, or any other POST, is never sent twice: it fails rather than risk a repeat', async () => {
  seen.length = 0;
  expect(await firstTry('/api/v1/orders')).toBe(502);
  // A key on a refund (or a check-in, a transfer) promises nothing: only purchases and exchanges.
  expect(await firstTry('/api/v1/orders/N1/refund', 'k-refund-0123456789abcdef')).toBe(502);
  expect(seen).toHaveLength(0);
  // An exchange is a keyed purchase of new seats: sent on.
  expect(await firstTry('/api/v1/orders/N1/exchange', 'k-exchange-0123456789abcdef')).toBe(201);
  expect(seen.map((x) => x.key)).toEqual(['k-exchange-0123456789abcdef']);
});
