import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';
import type { LeanLane } from '../src/http/lean';
import { Lifecycle } from '../src/http/lifecycle';
import { LoadShedder } from '../src/http/shedding';
import type { Metrics } from '../src/http/metrics';
import { apiServer } from '../src/http/serve';
import { TurnBatch } from '../src/http/turn-batch';

/**
 * The API's requests are answered a turn of the event loop at a time (http/turn-batch.ts): the
 * Koa side here (the lean lane's in lean.batch.test.ts). Nothing runs while the loop still reads
 * requests; each is counted in flight from its arrival, once, and one whose client went away
 * before its turn is not run. A saturated instance's early refusals (503) are answered a turn at
 * a time too, and never counted in flight.
 */
const turn = () => new Promise((r) => setImmediate(r));

it('runs what a turn handed over together after the turn, in order, and starts a new batch after', async () => {
  const ran: number[] = [];
  const batch = new TurnBatch<number>((n) => ran.push(n));
  [1, 2, 3].forEach((n) => batch.push(n));
  await Promise.resolve();
  expect(ran).toEqual([]);
  await turn();
  expect(ran).toEqual([1, 2, 3]);
  batch.push(4);
  await turn();
  expect(ran).toEqual([1, 2, 3, 4]);
});

it('runs the rest of a batch when one item throws, and throws it again outside the batch', async () => {
  const ran: number[] = [];
  const batch = new TurnBatch<number>((n) => {
    if (n === 2) throw new Error('two');
    ran.push(n);
  });
  // The throw is handed to process.nextTick, where nothing catches it (as outside a batch).
  const deferred: (() => void)[] = [];
  const nextTick = jest.spyOn(process, 'nextTick').mockImplementation(((fn: () => void) => {
    deferred.push(fn);
  }) as typeof process.nextTick);
  try {
    [1, 2, 3].forEach((n) => batch.push(n));
    await turn();
  } finally {
    nextTick.mockRestore();
  }
  expect(ran).toEqual([1, 3]);
  expect(deferred).toHaveLength(1);
  expect(() => deferred[0]!()).toThrow('two');
});

it("hands Koa a turn's requests together; each request, the lane's too, in flight from its arrival and counted once", async () => {
  const handled: string[] = [];
  const lifecycle = new Lifecycle();
  const app = { callback: () => (req: IncomingMessage) => handled.push(req.url!) } as unknown as Koa;
  const shedder = { refusesEarly: () => false } as unknown as LoadShedder;
  // The lean lane takes /lane/ requests (its own batches: lean.batch.test.ts).
  const laneTook: string[] = [];
  const lane = {
    serve: (req: IncomingMessage) => req.url!.startsWith('/lane/') && laneTook.push(req.url!) > 0,
  } as unknown as LeanLane;
  const server = apiServer(app, { shedder, lifecycle, metrics: {} as Metrics }, lane);
  const send = (url: string) => {
    const req = { url, method: 'GET', headers: {}, destroyed: false } as unknown as IncomingMessage;
    const res = new EventEmitter() as unknown as ServerResponse;
    server.emit('request', req, res);
    return { req, res };
  };
  const [, second] = ['/a', '/b', '/c'].map(send);
  await Promise.resolve();
  expect(handled).toEqual([]);
  expect(lifecycle.inFlight).toBe(3);
  // The client of /b went away before its turn: not run, and no longer in flight.
  Object.assign(second!.req, { destroyed: true });
  second!.res.emit('close');
  expect(lifecycle.inFlight).toBe(2);
  await turn();
  expect(handled).toEqual(['/a', '/c']);
  // The lifecycle middleware finds a request already counted, and does not count it again.
  const { res } = send('/d');
  lifecycle.track(res);
  expect(lifecycle.inFlight).toBe(3);
  res.emit('close');
  expect(lifecycle.inFlight).toBe(2);
  await turn();
  expect(handled).toEqual(['/a', '/c', '/d']);
  // The lane's requests are counted on arrival as well, before the lane takes them.
  const { res: laneRes } = send('/lane/1');
  expect(laneTook).toEqual(['/lane/1']);
  expect(lifecycle.inFlight).toBe(3);
  laneRes.emit('close');
  expect(lifecycle.inFlight).toBe(2);
});

/** A raw response that keeps what was written to it. */
class Res extends EventEmitter {
  status?: number;
  headers?: Record<string, unknown>;
  body?: Buffer;
  writeHead(status: number, headers: Record<string, unknown>) {
    Object.assign(this, { status, headers });
    return this;
  }
  end(body: Buffer) {
    this.body = body;
    this.emit('close');
  }
}

it("answers a saturated instance's refusals after the turn, counted as refused, not in flight", async () => {
  const handled: string[] = [];
  const lifecycle = new Lifecycle();
  const shedEarly = jest.fn();
  const app = { callback: () => (req: IncomingMessage) => handled.push(req.url!) } as unknown as Koa;
  // One request in flight at most, and no smaller bound while overloaded: the 2nd and later refused.
  const shedder = new LoadShedder(
    {
      maxEventLoopLagMs: 0,
      maxInflight: 1,
      maxInflightOverloaded: 0,
      overloadHoldMs: 0,
      latencyTargetMs: 0,
      retryAfterS: 3,
    },
    () => lifecycle.inFlight,
  );
  const server = apiServer(app, { shedder, lifecycle, metrics: { shedEarly } as unknown as Metrics });
  const send = (url: string) => {
    const req = { url, method: 'GET', headers: {}, destroyed: false } as unknown as IncomingMessage;
    const res = new Res();
    server.emit('request', req, res);
    return { req, res };
  };
  const [first, second, third] = ['/a', '/b', '/c'].map(send);
  expect(lifecycle.inFlight).toBe(1);
  expect(shedder.refused).toBe(2);
  await Promise.resolve();
  expect(second!.res.status).toBeUndefined();
  // The client of /c went away before its turn: nothing is written to it.
  Object.assign(third!.req, { destroyed: true });
  await turn();
  expect(handled).toEqual(['/a']);
  expect(first!.res.status).toBeUndefined();
  expect(second!.res.status).toBe(503);
  expect(second!.res.headers).toMatchObject({ 'Retry-After': '3' });
  expect(JSON.parse(String(second!.res.body)).error.code).toBe('OVERLOADED');
  expect(third!.res.status).toBeUndefined();
  // Counted all the same: it was refused.
  expect(shedEarly).toHaveBeenCalledTimes(2);
  expect(lifecycle.inFlight).toBe(1);
});
