// A node:http server with nothing of ours on a request's way: every GET answered with a
// waiting-room-poll-sized JSON body, every POST once its JSON body is read and parsed (as the
// lean lane reads a purchase's) with the API's refusal of it, each with the headers the lean lane
// writes (its security headers from the server's build, a request id, the content type and
// length). bench/raw-http/run.mjs measures it.
import http from 'node:http';
import { dist } from '../lib.mjs';

const poll = JSON.stringify({
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
const refusal = JSON.stringify({ error: { code: 'SEAT_TAKEN', message: '座位已被他人选走' } });
const { apiSecurityHeaders } = dist('http/security.js');
const api = (await apiSecurityHeaders(false)).flat();
const headersFor = (body) => [
  ...api,
  'X-Request-Id',
  '0123456789abcdef01234567',
  'Content-Type',
  'application/json; charset=utf-8',
  'Content-Length',
  String(Buffer.byteLength(body)),
];
const pollHeaders = headersFor(poll);
const refusalHeaders = headersFor(refusal);

const server = http.createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(200, pollHeaders);
    res.end(poll);
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(409, refusalHeaders);
    res.end(refusal);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
