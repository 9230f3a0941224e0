import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa from 'koa';
import pino from 'pino';
import { LeanLane, type LeanDeps, type LeanRoute } from '../src/http/lean';
import { Lifecycle } from '../src/http/lifecycle';

/**
 * The lean lane answers a turn's requests together (http/lean.ts answerTaken): none runs while
 * the event loop is still reading requests, and all run once it has, in the order they came.
 * The API's server counts them in flight on arrival, before the lane takes them
 * (serve.batch.test.ts).
 */
class Res extends EventEmitter {
  status?: number;
  body?: string;
  writeHead(status: number) {
    this.status = status;
    return this;
  }
  end(body: string) {
    this.body = body;
    this.emit('close');
  }
}

const request = (url: string) =>
  ({ method: 'GET', url, headers: {}, closed: false, socket: {} }) as unknown as IncomingMessage;

function lane(handled: string[]) {
  const lifecycle = new Lifecycle();
  const route: LeanRoute = {
    method: 'GET',
    route: '/t/:id',
    match: (p) => /^\/t\/(\d+)$/.exec(p)?.[1],
    handle: async (req) => {
      handled.push(req.param);
      return { id: req.param };
    },
  };
  const deps = {
    lifecycle,
    shedder: { admitted: () => undefined },
    metrics: { answered: () => undefined },
    log: pino({ level: 'silent' }),
    apiHeaders: Promise.resolve([['X-Content-Type-Options', 'nosniff']]),
    logRequestContext: false,
    parseBody: async () => undefined,
  } as unknown as LeanDeps;
  return { lane: new LeanLane(new Koa(), [route], deps), lifecycle };
}

const turn = () => new Promise((r) => setImmediate(r));

it("answers a turn's requests together once the loop has read them, in order", async () => {
  const handled: string[] = [];
  const { lane: l } = lane(handled);
  await turn(); // the API's headers are built
  const answers = ['1', '2', '3'].map(() => new Res());
  answers.forEach((res, i) =>
    expect(l.serve(request(`/t/${i + 1}`), res as unknown as ServerResponse)).toBe(true),
  );
  expect(l.serve(request('/other'), new Res() as unknown as ServerResponse)).toBe(false);
  await Promise.resolve();
  expect(handled).toEqual([]);
  await turn();
  expect(handled).toEqual(['1', '2', '3']);
  await turn();
  expect(answers.map((r) => [r.status, r.body])).toEqual(
    ['1', '2', '3'].map((id) => [200, JSON.stringify({ id })]),
  );
  // A request whose client went away before its batch is not run.
  const gone = request('/t/5');
  const goneRes = new Res();
  l.serve(gone, goneRes as unknown as ServerResponse);
  Object.assign(gone, { destroyed: true });
  goneRes.emit('close');
  await turn();
  expect(handled).toEqual(['1', '2', '3']);
  expect(goneRes.status).toBeUndefined();
  // The next turn's request starts a batch of its own.
  const late = new Res();
  l.serve(request('/t/4'), late as unknown as ServerResponse);
  await turn();
  await turn();
  expect(handled).toEqual(['1', '2', '3', '4']);
  expect(late.status).toBe(200);
});
