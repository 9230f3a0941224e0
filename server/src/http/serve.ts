import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type Koa from 'koa';
import parseurl from 'parseurl';
import { ERRORS } from '@showtix/shared-types';
import { answerRaw } from './raw-answer';
import type { LeanLane } from './lean';
import type { Lifecycle } from './lifecycle';
import type { Metrics } from './metrics';
import type { LoadShedder } from './shedding';
import { TurnBatch } from './turn-batch';

/**
 * The API's HTTP server (not yet listening). A saturated instance answers its 503 OVERLOADED
 * here, from the raw request, before Koa builds a context or any middleware runs
 * (LoadShedder.refusesEarly, answerRefusal): in an overload most requests are refused, and a
 * refusal that went through Koa cost about as much CPU as the requests admitted, so the refusals
 * alone kept the event loop saturated. A draining instance's requests go on to Koa, whose
 * lifecycle middleware answers them (503 with Connection: close). What is admitted may then be
 * answered on the lean lane (lean.ts), before Koa too.
 */
export function apiServer(
  app: Koa,
  d: { shedder: LoadShedder; lifecycle: Lifecycle; metrics: Metrics },
  lane?: LeanLane,
): Server {
  return createServer(apiHandler(app, d, lane));
}

/** The API server's request listener, for a server already listening (the tests reserve ports). */
export function apiHandler(
  app: Koa,
  d: { shedder: LoadShedder; lifecycle: Lifecycle; metrics: Metrics },
  lane?: LeanLane,
): RequestListener {
  const handle = app.callback();
  // Koa's requests too are answered a turn at a time (turn-batch.ts), as the lane's are, and not
  // run when the client went away before its turn (the lifecycle middleware finds them counted).
  // bench ab, two builds (2026-12-07, 5 rounds): /livez 125 -> 64 µs of the server's CPU, a path
  // no route has 160 -> 91 (5 of 5 rounds lower each).
  const koa = new TurnBatch<[IncomingMessage, ServerResponse]>(([req, res]) => {
    if (!req.destroyed) void handle(req, res);
  });
  // A saturated instance's refusals: decided on arrival (never counted in flight), answered a
  // turn at a time as well. bench ab, two builds, a path no route has with at most 1 in flight
  // (SHED_INFLIGHT_MAX=1, so nearly every request refused; 2026-12-07, 7 rounds): 50 -> 44 µs of
  // the server's CPU a request, 7 of 7 rounds lower.
  const refusals = new TurnBatch<[IncomingMessage, ServerResponse]>(([req, res]) => {
    if (!req.destroyed) d.shedder.answerRefusal(req, res);
    d.metrics.shedEarly(req.method);
  });
  return (req, res) => {
    if (!hasPath(req)) return noPath(req, res);
    if (!d.lifecycle.isDraining && d.shedder.refusesEarly(req)) {
      refusals.push([req, res]);
      return;
    }
    // In flight from arrival (the drain and the shedder count it), once, whichever side answers.
    d.lifecycle.track(res);
    if (lane?.serve(req, res)) return;
    koa.push([req, res]);
  };
}

/**
 * Whether the request target names a path. An absolute-form target without one (`GET http://
 * HTTP/1.1`, `GET h://a HTTP/1.1`) leaves Koa's ctx.path null, and the middleware that reads the
 * path before the error middleware threw on it: a bare 500, logged as a server fault, for a
 * request the client got wrong. `*` (OPTIONS) and `/…` have one.
 */
function hasPath(req: IncomingMessage): boolean {
  return typeof parseurl(req)?.pathname === 'string';
}

const NO_PATH_BODY = Buffer.from(
  JSON.stringify({ error: { code: 'VALIDATION_FAILED', message: '请求地址无效' } }),
);

/** 400 with the API's error body, as Node answers a request line it cannot parse (no other work). */
function noPath(req: IncomingMessage, res: ServerResponse): void {
  answerRaw(req, res, ERRORS.VALIDATION_FAILED.status, NO_PATH_BODY);
}
