import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestIdOf } from './request-id';

/**
 * A JSON answer written from the raw request, before Koa builds a context (http/serve.ts: a
 * target with no path, a saturated instance's 503): the request id it came with (or a new one),
 * `extra` headers, and `body`'s bytes.
 */
export function answerRaw(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: Buffer,
  extra?: Readonly<Record<string, string>>,
): void {
  const incoming = req.headers['x-request-id'];
  res.writeHead(status, {
    ...extra,
    'X-Request-Id': requestIdOf(typeof incoming === 'string' ? incoming : ''),
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': body.length,
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}
