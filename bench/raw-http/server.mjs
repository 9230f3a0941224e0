// A node:http server with nothing of ours on a request's way: every request answered with a
// waiting-room-poll-sized JSON body and the headers the API's lean lane writes (its security
// headers from the server's build, a request id, the content type and length).
// bench/raw-http/run.mjs measures it.
import http from 'node:http';
import { dist } from '../lib.mjs';

const body = JSON.stringify({
  sessionId: '1000000000000000001',
  queueEnabled: true,
  soldOut: false,
  admitted: false,
  position: 123456,
  ahead: 3456,
  etaSeconds: 345,
  admittedThrough: 120000,
  state: 'waiting',
  pollAfterMs: 5000,
});
const { apiSecurityHeaders } = dist('http/security.js');
const headers = [
  ...(await apiSecurityHeaders(false)),
  ['X-Request-Id', '0123456789abcdef01234567'],
  ['Content-Type', 'application/json; charset=utf-8'],
  ['Content-Length', String(Buffer.byteLength(body))],
].flat();

const server = http.createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
