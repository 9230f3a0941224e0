// A kept-alive HTTP/1.1 connection pool on bare sockets, for the paced offer (paced.mjs): each
// request written as one string, each answer read for its status, its Retry-After and its end
// (Content-Length or chunked), and its body only when asked. The offer's own CPU is what it
// measures against: on this 2-core machine the load generator shares a core with MariaDB and
// Redis, and undici's Pool (a full client: header objects, body streams, its dispatcher) spent
// 0.6-0.9 of a core to offer 7,000 purchases/s (2026-12-05), late by 157-342 ms at p99 in sending.
import net from 'node:net';

const CRLF2 = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/** A request the pool could not complete: the connection closed or failed under it, or it timed out. */
export class RawRequestError extends Error {
  constructor(message, { timeout = false } = {}) {
    super(message);
    this.timeout = timeout;
  }
}

/** An answer that is not HTTP/1.1 as this pool reads it: its connection is closed. */
const MALFORMED = -2;

/**
 * Where the answer at the start of `buf` ends (its byte length), -1 if it has not all arrived,
 * or MALFORMED. `head`: its status line and headers, lower-cased (latin1).
 */
function answerEnd(buf, headEnd, head) {
  const bodyAt = headEnd + 4;
  const cl = /\r\ncontent-length:[ \t]*(\d+)/.exec(head);
  if (cl) {
    const end = bodyAt + Number(cl[1]);
    return buf.length >= end ? end : -1;
  }
  if (!/\r\ntransfer-encoding:[^\r]*chunked/.test(head)) return bodyAt; // no body (204, 304)
  for (let at = bodyAt; ;) {
    const lineEnd = buf.indexOf(CRLF, at);
    if (lineEnd < 0) return -1;
    const line = buf.toString('latin1', at, lineEnd);
    if (!/^[0-9a-f]+(;.*)?$/i.test(line)) return MALFORMED;
    const size = parseInt(line, 16);
    // The last chunk, then an empty trailer (our server sends none).
    if (size === 0) return buf.length >= lineEnd + 4 ? lineEnd + 4 : -1;
    at = lineEnd + 2 + size + 2;
    if (at > buf.length) return -1;
  }
}

/** One kept-alive connection: one request at a time (no pipelining). */
class Conn {
  constructor(pool) {
    this.pool = pool;
    this.buf = null;
    this.current = null; // { resolve, reject, sentAt }
    this.socket = net.connect({ host: pool.host, port: pool.port, noDelay: true });
    this.socket.on('data', (chunk) => this.onData(chunk));
    this.socket.on('error', () => {}); // 'close' follows and fails the request in flight
    this.socket.on('close', () => this.onClose());
  }

  send(text, job) {
    this.current = job;
    job.sentAt = performance.now();
    this.socket.write(text);
  }

  onData(chunk) {
    this.buf = this.buf === null ? chunk : Buffer.concat([this.buf, chunk]);
    while (this.buf !== null) {
      const headEnd = this.buf.indexOf(CRLF2);
      if (headEnd < 0) return;
      const head = this.buf.toString('latin1', 0, headEnd).toLowerCase();
      const end = answerEnd(this.buf, headEnd, head);
      if (end === MALFORMED || !/^http\/1\.[01] \d{3}/.test(head)) return this.fail('a malformed answer');
      if (end < 0) return;
      const buf = this.buf;
      this.buf = end === buf.length ? null : buf.subarray(end);
      const job = this.current;
      this.current = null;
      if (!job) return this.fail('an answer nobody asked for'); // the stream is out of step
      const answer = {
        statusCode: Number(head.slice(9, 12)),
        retryAfter: head.includes('\r\nretry-after:'),
        // When it was written to its connection (epoch ms, as paced.mjs's nowMs), after any wait for one.
        writtenAt: performance.timeOrigin + job.sentAt,
        // Asked for (readBody): the body as UTF-8 text, as sent (a chunked one with its framing).
        body: job.readBody ? buf.toString('utf8', headEnd + 4, end) : undefined,
      };
      if (head.includes('\r\nconnection: close')) this.socket.destroy();
      else this.pool.free(this);
      job.resolve(answer);
    }
  }

  /** Closes the connection; its request in flight fails with `why`. */
  fail(why) {
    if (this.current) this.current.error ??= new RawRequestError(why);
    this.buf = null;
    this.socket.destroy();
  }

  onClose() {
    const job = this.current;
    this.current = null;
    if (job) job.reject(job.error ?? new RawRequestError('connection closed before the answer'));
    this.pool.lost(this);
  }
}

/**
 * `connections` kept-alive connections to `url`; request() sends on a free one, or waits (first
 * come, first served) until one is. A closed connection is opened again while requests wait.
 */
export class RawPool {
  constructor(url, { connections, timeoutMs = 10_000 }) {
    const u = new URL(url);
    this.host = u.hostname;
    this.port = Number(u.port || 80);
    this.hostHeader = u.host;
    this.size = connections;
    this.timeoutMs = timeoutMs;
    this.conns = new Set();
    this.idle = [];
    this.waiting = [];
    this.waitingAt = 0;
    this.closed = false;
    this.timer = setInterval(() => this.expire(), Math.min(250, timeoutMs));
  }

  /**
   * Sends `method path` with `headers` (an object) and `body` (a string); resolves with
   * { statusCode, retryAfter, writtenAt, body (the answer's, with readBody) } once answered, or
   * rejects with a RawRequestError.
   */
  request({ method, path, headers = {}, body = '', readBody = false }) {
    let text = `${method} ${path} HTTP/1.1\r\nhost: ${this.hostHeader}\r\n`;
    for (const k in headers) text += `${k}: ${headers[k]}\r\n`;
    text += `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    return new Promise((resolve, reject) => {
      const job = { text, resolve, reject, sentAt: 0, error: null, readBody };
      const conn = this.take();
      if (conn) conn.send(text, job);
      else this.waiting.push(job);
    });
  }

  /** A free connection, opening one while fewer than `connections` are open. */
  take() {
    const conn = this.idle.pop();
    if (conn) return conn;
    if (this.conns.size >= this.size || this.closed) return undefined;
    const opened = new Conn(this);
    this.conns.add(opened);
    return opened;
  }

  free(conn) {
    if (this.waitingAt < this.waiting.length) {
      const job = this.waiting[this.waitingAt];
      this.waiting[this.waitingAt++] = undefined;
      if (this.waitingAt === this.waiting.length) {
        this.waiting = [];
        this.waitingAt = 0;
      }
      conn.send(job.text, job);
    } else this.idle.push(conn);
  }

  lost(conn) {
    this.conns.delete(conn);
    const i = this.idle.indexOf(conn);
    if (i >= 0) this.idle.splice(i, 1);
    if (this.closed || this.waitingAt >= this.waiting.length) return;
    this.free(this.take());
  }

  /** Requests unanswered after timeoutMs fail as timeouts (their connection is closed). */
  expire() {
    const before = performance.now() - this.timeoutMs;
    for (const conn of this.conns) {
      if (!conn.current || conn.current.sentAt > before) continue;
      conn.current.error = new RawRequestError(`no answer within ${this.timeoutMs} ms`, { timeout: true });
      conn.socket.destroy();
    }
  }

  /** Closes every connection; requests still waiting fail. */
  destroy() {
    this.closed = true;
    clearInterval(this.timer);
    for (const job of this.waiting.slice(this.waitingAt)) job?.reject(new RawRequestError('pool destroyed'));
    this.waiting = [];
    this.waitingAt = 0;
    for (const conn of this.conns) conn.socket.destroy();
  }
}
