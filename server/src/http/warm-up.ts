import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { TokenService } from './auth';
import type { Lifecycle } from './lifecycle';
import type { Metrics } from './metrics';

/** Warm-up requests in flight at once: a crowd's batching, without a queue of its own. */
const warmUpConnections = 16;
/** A warm-up that has not finished by then stops: a slow machine starts cold rather than late. */
const warmUpLimitMs = 20_000;
/** One request's limit: the instance answers itself over loopback. */
const warmUpRequestTimeoutMs = 5_000;
/** The warm-up's tokens never leave the process; they need not outlive the warm-up. */
const warmUpTokenTtlS = 60;
/** The fan the tokens name: no user has id 0 (ids start at 1). */
const WARM_UP_FAN = '0';
/** A session id no session has (the largest a plain id can be): a second guard, see below. */
const WARM_UP_SESSION = '999999999999999999';
/** '!' is not allowed in an Idempotency-Key: the route refuses the request with this code. */
const WARM_UP_KEY = '!warm-up';
const EXPECTED_CODE = 'VALIDATION_FAILED';

export interface WarmUpResult {
  /** Requests answered with the expected 400. */
  answered: number;
  ms: number;
  /** Why it stopped before `requests`: an unexpected answer, an error, or the time limit. */
  stopped?: string;
}

/**
 * Why: an instance that has served no purchase yet answered the flash sale's first second with a
 * p99 two to five times the rest of the sale's (docs/benchmarks.md): the JIT had not optimised
 * the hot path. Before it turns ready, the instance sends itself `requests` purchases, each with
 * a fresh token, that the purchase route refuses with 400 (a malformed Idempotency-Key) once the
 * token is checked and the body parsed. So the HTTP parsing, the lean lane, the token check, the
 * body, the answer's headers and its write, most of a purchase's CPU, have run thousands of
 * times before the first fan's request, and nothing is written: the route refuses before the
 * order service runs, so no Redis or MySQL call is made.
 *
 * Invariant: every answer is that 400. Any other answer stops the warm-up at once and is logged
 * as an error (a later change that checked the key after the service would otherwise turn the
 * warm-up into purchases); the body's session exists nowhere, so even then nothing would sell.
 */
export async function warmUp(o: {
  address: AddressInfo;
  requests: number;
  tokens: TokenService;
}): Promise<WarmUpResult> {
  const started = performance.now();
  const agent = new Agent({ keepAlive: true, maxSockets: warmUpConnections });
  const host = loopbackOf(o.address.address);
  const body = JSON.stringify({ sessionId: WARM_UP_SESSION, seatIds: ['1'] });
  let next = 0;
  let answered = 0;
  let stopped: string | undefined;
  const fan = { userId: WARM_UP_FAN, roles: ['fan' as const] };
  const one = async () => {
    while (!stopped && next < o.requests) {
      if (performance.now() - started > warmUpLimitMs) {
        stopped = `time limit (${warmUpLimitMs} ms)`;
        return;
      }
      // Tokens are checked against the real clock (as fast-jwt checks them), not the app's clock.
      const opts = { jti: `warm-up-${next++}`, ttlS: warmUpTokenTtlS };
      const token = await o.tokens.issue(fan, Date.now(), opts);
      const a = await post({ agent, host, port: o.address.port, token, body });
      if (a.status === 400 && a.code === EXPECTED_CODE) answered++;
      else stopped ??= `answered ${a.status} ${a.code ?? ''}`.trim();
    }
  };
  try {
    await Promise.all(Array.from({ length: warmUpConnections }, one));
  } finally {
    agent.destroy();
  }
  return { answered, ms: Math.round(performance.now() - started), stopped };
}

/**
 * Runs the warm-up on a started instance, its answers not counted, and turns it ready when it
 * ends. The caller marks the instance warming before it listens (startServer), so that not even
 * its first request finds it ready.
 */
export async function warmUpInstance(
  d: { lifecycle: Lifecycle; metrics: Metrics; tokens: TokenService; log: Logger },
  address: AddressInfo,
  requests: number,
): Promise<void> {
  if (requests === 0) return;
  d.metrics.countsAnswers = false;
  try {
    const r = await warmUp({ address, requests, tokens: d.tokens });
    if (r.stopped) d.log.error({ ...r, requests }, 'warm-up stopped early; serving anyway');
    else d.log.info({ ...r }, 'warmed up');
  } catch (err) {
    d.log.error({ err }, 'warm-up failed; serving anyway');
  } finally {
    d.metrics.countsAnswers = true;
    d.lifecycle.warmingUp(false);
  }
}

/** Where the instance reaches its own listener: loopback for a wildcard address. */
function loopbackOf(address: string): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '::1';
  return address;
}

/** One warm-up purchase: its status and error code (an error or timeout answers status 0). */
function post(o: {
  agent: Agent;
  host: string;
  port: number;
  token: string;
  body: string;
}): Promise<{ status: number; code?: string }> {
  return new Promise((resolve) => {
    const req = request(
      {
        agent: o.agent,
        host: o.host,
        port: o.port,
        method: 'POST',
        path: '/api/v1/orders',
        timeout: warmUpRequestTimeoutMs,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(o.body),
          authorization: `Bearer ${o.token}`,
          'idempotency-key': WARM_UP_KEY,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, code: errorCode(chunks) }));
        res.on('error', () => resolve({ status: 0, code: 'response error' }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve({ status: 0, code: err.message }));
    req.end(o.body);
  });
}

function errorCode(chunks: Buffer[]): string | undefined {
  try {
    const b = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: { code?: unknown } };
    return typeof b.error?.code === 'string' ? b.error.code : undefined;
  } catch {
    return undefined;
  }
}
