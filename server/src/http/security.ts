import type { Context, Middleware } from 'koa';
import helmet from 'koa-helmet';

/**
 * Security headers on every response, set before anything else runs so that errors, static
 * files and 404s carry them too (helmet: CSP, X-Frame-Options, nosniff, Referrer-Policy, ...).
 * Three kinds of response, three content policies:
 * - API JSON, metrics, posters: a document that may load nothing and be framed by no one;
 * - the admin page: its own scripts only (antd writes inline styles), framed by no one;
 * - the fan's H5 build (development and tests only by default): as the admin page, plus its
 *   one inline script that sizes the root font before the app loads.
 */
const none = ["'none'"];
const self = ["'self'"];

const pageDirectives = {
  defaultSrc: self,
  scriptSrc: self,
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: self,
  objectSrc: none,
  baseUri: self,
  formAction: self,
  frameAncestors: none,
};

const commonOf = (hsts: boolean) => ({
  frameguard: { action: 'deny' as const },
  strictTransportSecurity: hsts ? { maxAge: 180 * 24 * 3600 } : false,
  // Posters are loaded by the admin page, which may live on a sibling host (ADMIN_HOST).
  crossOriginResourcePolicy: { policy: 'same-site' as const },
});

/**
 * The headers every API answer carries. They never depend on the request (no nonce, no per-path
 * policy), so helmet runs once, on a stand-in response, and each answer copies what it set: the
 * middleware below, and the lean lane (http/lean.ts), which writes its answers itself. Per
 * request, helmet rebuilt the CSP string and added a promise: about 4% of a refused purchase's
 * CPU in the profile, and in a flash sale most requests are refusals.
 */
export function apiSecurityHeaders(hsts: boolean): Promise<[string, string][]> {
  const mw = helmet({
    ...commonOf(hsts),
    referrerPolicy: { policy: 'no-referrer' },
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: none, frameAncestors: none, baseUri: none, formAction: none },
    },
  });
  const headers: [string, string][] = [];
  const res = {
    setHeader: (k: string, v: unknown) => void headers.push([k, String(v)]),
    removeHeader: () => undefined,
    getHeader: () => undefined,
  };
  return mw({ req: { headers: {} }, res } as unknown as Context, async () => undefined).then(() => headers);
}

/**
 * h5ConnectSrc: origins the fan's H5 build may call besides its own, i.e. the WeChat simulator
 * it logs in and pays through (the H5 build works only with the simulator, in development and
 * tests) and the public API base.
 */
export function securityHeaders(o: { hsts: boolean; h5ConnectSrc?: string[] }): Middleware {
  const common = commonOf(o.hsts);
  const api = fixedHeaders(apiSecurityHeaders(o.hsts));
  const admin = helmet({
    ...common,
    referrerPolicy: { policy: 'same-origin' },
    contentSecurityPolicy: { useDefaults: false, directives: pageDirectives },
  });
  const h5 = helmet({
    ...common,
    referrerPolicy: { policy: 'same-origin' },
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        ...pageDirectives,
        scriptSrc: ["'self'", "'unsafe-inline'"],
        connectSrc: ["'self'", ...(o.h5ConnectSrc ?? [])],
      },
    },
  });
  // The probes are JSON answers like the API's: /livez took the H5 page's policy until 2026-12-06
  // (helmet run per request, and a CSP that allows scripts where none belongs).
  const kind = (ctx: Context) =>
    /^\/(api|metrics|healthz|readyz|livez|media)(\/|$)/.test(ctx.path)
      ? api
      : /^\/admin(\/|$)/.test(ctx.path)
        ? admin
        : h5;
  return (ctx, next) => kind(ctx)(ctx, next);
}

/** Copies the fixed headers onto each answer (apiSecurityHeaders). */
function fixedHeaders(captured: Promise<[string, string][]>): Middleware {
  let headers: [string, string][] | undefined;
  void captured.then((h) => (headers = h));
  const apply = (ctx: Context, next: () => Promise<unknown>, h: [string, string][]) => {
    for (const [k, v] of h) ctx.res.setHeader(k, v);
    return next();
  };
  // Not an async function: once the headers are known, a request pays no promise of its own here.
  return (ctx, next) => (headers ? apply(ctx, next, headers) : captured.then((h) => apply(ctx, next, h)));
}
