import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import pino from 'pino';
import { asyncContextIsCheap } from '../../src/config/runtime';
import { appError } from '../../src/errors';
import { errorMiddleware } from '../../src/http/errors';
import { requestIdMiddleware, requestIdMixin } from '../../src/http/request-id';
import { testConfig } from '../helpers/env';

describe('LOG_REQUEST_CONTEXT', () => {
  it('auto keeps the context where AsyncLocalStorage needs no async hooks', () => {
    expect(asyncContextIsCheap('20.20.2', [])).toBe(false);
    expect(asyncContextIsCheap('22.12.0', [])).toBe(false);
    expect(asyncContextIsCheap('22.12.0', ['--experimental-async-context-frame'])).toBe(true);
    expect(asyncContextIsCheap('24.1.0', [])).toBe(true);
    expect(asyncContextIsCheap('24.1.0', ['--no-async-context-frame'])).toBe(false);
  });

  it('on and off are obeyed; anything else refuses to start', () => {
    expect(testConfig({ LOG_REQUEST_CONTEXT: 'on' }).logRequestContext).toBe(true);
    expect(testConfig({ LOG_REQUEST_CONTEXT: 'off' }).logRequestContext).toBe(false);
    expect(() => testConfig({ LOG_REQUEST_CONTEXT: 'sometimes' })).toThrow(/LOG_REQUEST_CONTEXT/);
  });

  /** A Koa app with the request id and error middleware; its handler logs from a "service". */
  async function serve(context: boolean) {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const l of String(chunk).split('\n'))
          if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
        done();
      },
    });
    const log = pino({ level: 'info', mixin: requestIdMixin }, sink);
    const app = new Koa();
    app.use(requestIdMiddleware(log, context));
    app.use(errorMiddleware(log));
    app.use(async (ctx) => {
      await new Promise((r) => setTimeout(r, 5)); // the line is logged after an await, as in a service
      log.warn('deep in a service');
      if (ctx.path === '/fail') throw new Error('boom');
      if (ctx.path === '/refuse') throw appError('NOT_FOUND');
      ctx.body = { ok: true };
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = (path: string) =>
      fetch(url + path, { headers: { 'x-request-id': `req-${path.slice(1)}-0001` } });
    return { lines, get, close: () => new Promise((r) => server.close(r)) };
  }

  it.each([true, false])('context %s: the id is on the answer and on the failure line', async (context) => {
    const s = await serve(context);
    try {
      const ok = await s.get('/ok');
      expect(ok.headers.get('x-request-id')).toBe('req-ok-0001');
      expect((await s.get('/fail')).status).toBe(500);
      expect((await s.get('/refuse')).status).toBe(404);
      const deep = s.lines.filter((l) => l.msg === 'deep in a service');
      expect(deep).toHaveLength(3);
      // Every line of a request carries its id only with the context on.
      for (const l of deep) expect(l.reqId !== undefined).toBe(context);
      // The request's own failure line carries it either way.
      expect(s.lines.filter((l) => l.msg === 'request failed')).toEqual([
        expect.objectContaining({ reqId: 'req-fail-0001', path: '/fail' }),
      ]);
    } finally {
      await s.close();
    }
  });
});
