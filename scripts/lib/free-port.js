// A port for a process that will listen on it soon: a child told its port (an API process, nginx,
// redis-server, MariaDB, Prometheus), or a server that needs its port known before it can be
// built. Plain CommonJS and Node built-ins only (types in free-port.d.ts), so the scripts, the
// benches and the server's jest suites all load this one copy.
const { readFileSync } = require('node:fs');
const { createServer } = require('node:net');

/** The lowest port drawn from; below it sit the well-known services (MySQL 3306, Redis 6379…). */
const LOWEST_PORT = 10_000;
const HIGHEST_PORT = 65_535;
const DRAWS = 50;

/** Whether 127.0.0.1:port can be listened on now. */
function portFree(port) {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** The kernel's ephemeral range [low, high] (Linux), or undefined where it cannot be read. */
function ephemeralRange(file = '/proc/sys/net/ipv4/ip_local_port_range') {
  try {
    const [low, high] = readFileSync(file, 'utf8').trim().split(/\s+/).map(Number);
    return Number.isInteger(low) && Number.isInteger(high) && low <= high ? [low, high] : undefined;
  } catch {
    return undefined;
  }
}

/** The ports outside the ephemeral range a draw may give, as [from, to] spans. */
function drawSpans(range) {
  if (!range) return [];
  const spans = [
    [LOWEST_PORT, range[0] - 1],
    [range[1] + 1, HIGHEST_PORT],
  ];
  return spans.filter(([from, to]) => to >= from);
}

/** The k-th port of the spans, counted from the first span's start. */
function nth(spans, k) {
  for (const [from, to] of spans) {
    if (k <= to - from) return from + k;
    k -= to - from + 1;
  }
  throw new RangeError(`port ${k} past the spans`);
}

/** A port the system chooses (listen on 0), closed at once. */
function anyPort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * A port free now. Drawn at random outside the kernel's ephemeral range: a port found with
 * listen(0) and closed comes from that range, and until its process listens on it any outgoing
 * connection or listen(0) of any process may take it (listen's EADDRINUSE then: the likely
 * cause of a server test's beforeAll that hung in CI). Outside the range only another explicit
 * choice, such as another call of this function, can take it meanwhile. Where the range is
 * unknown (not Linux), the system's choice.
 */
async function freePort(range = ephemeralRange()) {
  const spans = drawSpans(range);
  const size = spans.reduce((n, [from, to]) => n + to - from + 1, 0);
  for (let i = 0; size > 0 && i < DRAWS; i++) {
    const port = nth(spans, Math.floor(Math.random() * size));
    if (await portFree(port)) return port;
  }
  return anyPort();
}

module.exports = { freePort, portFree, ephemeralRange };
