// A node:http server with nothing of ours: every request answered with a waiting-room-poll-sized
// JSON body and the API's security headers (bench/raw-http/run.mjs measures it).
import http from 'node:http';

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
const headers = [
  ['Content-Security-Policy', "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'"],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
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
