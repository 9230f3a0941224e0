import { createServer, type Server } from 'node:http';
import type Koa from 'koa';
import type { LeanLane } from './lean';
import type { Lifecycle } from './lifecycle';
import type { Metrics } from './metrics';
import type { LoadShedder } from './shedding';

/**
 * The API's HTTP server (not yet listening). A saturated instance answers its 503 OVERLOADED
 * here, from the raw request, before Koa builds a context or any middleware runs
 * (LoadShedder.refuseEarly): in an overload most requests are refused, and a refusal that went
 * through Koa cost about as much CPU as the requests admitted, so the refusals alone kept the
 * event loop saturated. A draining instance's requests go on to Koa, whose lifecycle middleware
 * answers them (503 with Connection: close). What is admitted may then be answered on the lean
 * lane (lean.ts), before Koa too.
 */
export function apiServer(
  app: Koa,
  d: { shedder: LoadShedder; lifecycle: Lifecycle; metrics: Metrics },
  lane?: LeanLane,
): Server {
  const handle = app.callback();
  return createServer((req, res) => {
    if (!d.lifecycle.isDraining && d.shedder.refuseEarly(req, res)) {
      d.metrics.shedEarly(req.method);
      return;
    }
    if (lane?.serve(req, res)) return;
    void handle(req, res);
  });
}
