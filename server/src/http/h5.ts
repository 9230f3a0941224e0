import { stat } from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';
import { send } from '@koa/send';

const YEAR_MS = 365 * 24 * 3_600_000;

/**
 * The fan's H5 build (dist/h5) at the site root, so one URL serves the whole product in a
 * browser. Only GET paths outside /api and /admin, and only files that exist; the app routes
 * by hash, so there is no history fallback beyond index.html at "/".
 */
export function h5Routes(dir: string, adminHost?: string): Router {
  const r = new Router();
  r.get('/{*path}', async (ctx, next) => {
    if (adminHost && ctx.hostname.toLowerCase() === adminHost) return next();
    const rel = ctx.path === '/' ? 'index.html' : decodeURIComponent(ctx.path.slice(1));
    if (/^(api|admin|media|metrics|healthz)(\/|$)/.test(rel) || rel.split('/').some((p) => p.startsWith('.')))
      return next();
    const file = path.join(dir, rel);
    if (
      !(await stat(file).then(
        (s) => s.isFile(),
        () => false,
      ))
    )
      return next();
    const hashed = /\.[0-9a-f]{8,}\.(js|css)$/.test(rel) || rel.startsWith('static/');
    if (rel === 'index.html') ctx.set('Cache-Control', 'no-cache');
    // Sent as the build's brotli or gzip copy where the client takes one (scripts/precompress.mjs).
    ctx.vary('Accept-Encoding');
    await send(ctx, rel, { root: dir, maxage: hashed ? YEAR_MS : 0, immutable: hashed });
  });
  return r;
}
