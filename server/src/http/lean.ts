import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery, type ParsedUrlQuery } from 'node:querystring';
import parseurl from 'parseurl';
import type Koa from 'koa';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import { errorAnswer } from './errors';
import { plainJsonBody } from './json-body';
import type { Lifecycle } from './lifecycle';
import type { Metrics } from './metrics';
import { requestContext, requestIdOf } from './request-id';
import type { LoadShedder } from './shedding';
import { TurnBatch } from './turn-batch';

/** What a lean route's handler sees of the request. */
export interface LeanRequest {
  /** The one path parameter the route's pattern captured. */
  readonly param: string;
  /** A request header by its lower-case name, '' when absent (as Koa's ctx.get reads it). */
  header(name: string): string;
  /** The client's address as Koa's ctx.ip gives it (the trusted proxy hops applied). */
  readonly ip: string;
  /** A POST's body as the app's body parser read it (ctx.request.body); undefined for a GET. */
  readonly body: unknown;
  /** A query parameter given once, as Koa's ctx.query has it; undefined when absent or repeated. */
  searchParam(name: string): string | undefined;
}

/**
 * A hot request answered before Koa. Its answer must be the one its Koa route gives:
 * test/{orders,queue,seatmap}.lean.test.ts hold the two side by side. None may be a route the
 * pause switch stops (degrade/routes.ts): the lane does not consult it.
 */
export interface LeanRoute {
  readonly method: 'GET' | 'POST';
  /** The route's name in metrics: the name Koa's router gives the same route. */
  readonly route: string;
  /** The status of its answer when the handler returns (its Koa route's ctx.status): 200 unless given. */
  readonly okStatus?: 201;
  /** Headers its success answer (okStatus) carries besides the API's own (name, value, name, value, ...). */
  readonly okHeaders?: readonly string[];
  /** The path's one parameter when this route takes the path; undefined leaves it to Koa. */
  match(pathname: string): string | undefined;
  /**
   * The body of the okStatus answer; a thrown error answers as the error middleware would. A POST's
   * body has been read by then (LeanRequest.body), as the app reads it before any route runs.
   */
  handle(req: LeanRequest): Promise<unknown>;
}

export interface LeanDeps {
  lifecycle: Lifecycle;
  shedder: LoadShedder;
  metrics: Metrics;
  log: Logger;
  /** The headers every API answer carries (security.ts apiSecurityHeaders). */
  apiHeaders: Promise<[string, string][]>;
  /** LOG_REQUEST_CONTEXT: the request id in the log context of what the handler logs. */
  logRequestContext: boolean;
  /** A POST's body, read as the app reads it (rawBodyParser). */
  parseBody: (req: IncomingMessage) => Promise<unknown>;
}

/**
 * The app's own body parser (@koa/bodyparser, its options as the app has them, `jsonLimitBytes`
 * its JSON limit) run on the raw request: the body as a Koa route would find it in
 * ctx.request.body, and its errors (400, 413, 415) as the error middleware would see them. Only
 * the parser's part of a context is given. The usual body (plain JSON, its length given) is read
 * by plainJsonBody instead, which reads it as the parser does.
 */
export function rawBodyParser(
  parser: Middleware,
  jsonLimitBytes: number,
): (req: IncomingMessage) => Promise<unknown> {
  return async (req) => {
    const plain = plainJsonBody(req, jsonLimitBytes);
    if (plain) return plain;
    const request = { body: undefined as unknown, get: (h: string) => headerOf(req, h) };
    await parser({ method: req.method, req, request } as unknown as Context, async () => undefined);
    return request.body;
  };
}

/** A request header by name, '' when absent (as Koa's ctx.get reads it). */
function headerOf(req: IncomingMessage, name: string): string {
  const v = req.headers[name.toLowerCase()];
  return typeof v === 'string' ? v : '';
}

/**
 * A LeanRoute's match for `/api/v1/sessions/<id><suffix>`, the id in its plain form only (as
 * IdSchema reads it); any other form of the path is left to Koa, whose pathId answers it.
 */
export function sessionPath(suffix: string): (pathname: string) => string | undefined {
  const re = new RegExp(`^/api/v1/sessions/([1-9]\\d{0,17})${suffix}$`);
  return (pathname) => re.exec(pathname)?.[1];
}

const JSON_TYPE = 'application/json; charset=utf-8';

class RawRequest implements LeanRequest {
  body: unknown;

  constructor(
    private readonly app: Koa,
    readonly req: IncomingMessage,
    readonly param: string,
  ) {}

  header(name: string): string {
    return headerOf(this.req, name);
  }

  get ip(): string {
    return requestIp(this.app, this.req);
  }

  searchParam(name: string): string | undefined {
    // As Koa's request.query: node:querystring over the URL's query string.
    this.parsedQuery ??= parseQuery(String(parseurl(this.req)?.query ?? ''));
    const v = this.parsedQuery[name];
    return typeof v === 'string' ? v : undefined;
  }

  private parsedQuery?: ParsedUrlQuery;
}

/** A request the lane took, waiting for its batch (LeanLane.answerTaken). */
interface Taken {
  route: LeanRoute;
  lean: RawRequest;
  res: ServerResponse;
  path: string;
  /** When the lane took it (performance.now()). */
  started: number;
}

/**
 * The client's address as Koa's ctx.ip reads it, by Koa's own request getter (X-Forwarded-For,
 * app.proxy, maxIpsCount): one reading of the address, whichever way the request is served.
 */
export function requestIp(app: Koa, req: IncomingMessage): string {
  const r = Object.create(app.request) as Koa.Request;
  Object.assign(r, { app, req });
  return r.ip;
}

/**
 * The lean lane: the crowd's most frequent requests (the purchase, the waiting room's poll and
 * join, the seat map's seat states) answered from the raw request, before Koa builds a context
 * and runs its middleware chain, which cost more than a poll's own work (profile and A/B in
 * docs/benchmarks.md). The lane does what that chain does for such a request: the request id,
 * the security headers, the body, the metrics, the error answers (serve.ts counted it in flight
 * on arrival, as it counts Koa's requests). It answers a turn's requests together
 * (turn-batch.ts). Anything it does not expect (another method or path form, a draining
 * instance, debug logging, headers not yet built, a request already closed) goes to Koa, whole.
 */
export class LeanLane {
  /**
   * The headers of the answer being written: the API's own first (set once), then the answer's.
   * One array for every answer: writeHead reads it through before it returns and keeps no
   * reference, and a fresh copy per answer (about 30 entries, grown again by what was pushed
   * after them) was the lane's largest own allocation after the body (bench ab --alloc).
   */
  private headers?: string[];
  private apiHeaderCount = 0;
  private readonly within: <T>(id: string, fn: () => T) => T;
  private readonly taken = new TurnBatch<Taken>((t) => this.answerTaken(t));

  constructor(
    private readonly app: Koa,
    private readonly routes: readonly LeanRoute[],
    private readonly d: LeanDeps,
  ) {
    this.within = requestContext(d.logRequestContext);
    void d.apiHeaders.then((h) => {
      this.headers = h.flat();
      this.apiHeaderCount = this.headers.length;
    });
  }

  /** True when a lean route took the request; false hands it to Koa untouched. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.headers || this.d.lifecycle.isDraining || req.closed) return false;
    // Koa's per-request debug line (request-id.ts) is written only there.
    if (this.d.log.isLevelEnabled('debug')) return false;
    const pathname = parseurl(req)?.pathname ?? '/';
    for (const route of this.routes) {
      if (route.method !== req.method) continue;
      const param = route.match(pathname);
      if (param === undefined) continue;
      // Counted in flight already (serve.ts, on arrival); its latency counts from now.
      const started = performance.now();
      this.d.shedder.admitted(res);
      const taken = { route, lean: new RawRequest(this.app, req, param), res, path: pathname, started };
      this.taken.push(taken);
      return true;
    }
    return false;
  }

  /**
   * A taken request once its turn's requests are all read (turn-batch.ts): answered, unless the
   * client went away meanwhile. No answer could reach it then, and a body's listeners attached
   * now would wait for events that were already emitted.
   */
  private answerTaken(t: Taken): void {
    if (!t.lean.req.destroyed) void this.answer(t);
  }

  private async answer({ route, lean, res, path, started }: Taken): Promise<void> {
    const id = requestIdOf(lean.header('x-request-id'));
    const ok = route.okStatus ?? 200;
    let status = ok;
    let body: unknown;
    let extra: Record<string, string> | undefined;
    try {
      if (route.method === 'POST') lean.body = await this.d.parseBody(lean.req);
      body = await this.within(id, () => route.handle(lean));
    } catch (err) {
      const a = errorAnswer(err, this.d.log, { path, method: route.method, reqId: id });
      ({ status, body, headers: extra } = a);
    }
    this.write(res, status, id, body, status === ok ? route.okHeaders : undefined, extra);
    this.d.metrics.answered(route.method, route.route, status, body, started);
  }

  private write(
    res: ServerResponse,
    status: number,
    id: string,
    body: unknown,
    ok: readonly string[] | undefined,
    extra: Record<string, string> | undefined,
  ): void {
    const json = JSON.stringify(body);
    const h = this.headers!;
    h.push('X-Request-Id', id);
    if (ok) for (const v of ok) h.push(v);
    if (extra) for (const k in extra) h.push(k, extra[k]!);
    h.push('Content-Type', JSON_TYPE, 'Content-Length', String(Buffer.byteLength(json)));
    // As the lifecycle middleware: no reuse of a connection this instance is about to close.
    if (this.d.lifecycle.isDraining) h.push('Connection', 'close');
    try {
      res.writeHead(status, h);
    } finally {
      // Back to the API's own headers, whatever writeHead did (it validates what it is given).
      h.length = this.apiHeaderCount;
    }
    res.end(json);
  }
}
