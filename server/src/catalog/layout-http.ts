import type { Context } from 'koa';
import type { LayoutAsset } from './layout-asset';

/** A year: the versioned URL names content that never changes. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves a layout asset as a CDN would want it: the precompressed bytes the client accepts
 * (brotli, then gzip), a strong ETag (the version), 304 on If-None-Match, and long caching only
 * for the URL that names the current version (`?v=<version>`); the unversioned URL and a stale
 * version revalidate every time (no-cache), so an edited layout is never served from a cache.
 */
export function sendLayout(ctx: Context, asset: LayoutAsset): void {
  const v = typeof ctx.query.v === 'string' ? ctx.query.v : undefined;
  ctx.vary('Accept-Encoding');
  ctx.set('ETag', asset.etag);
  ctx.set('Cache-Control', v === asset.version ? IMMUTABLE : 'public, no-cache');
  ctx.set('X-Layout-Version', asset.version);
  if (matches(ctx.get('If-None-Match'), asset.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = 'application/json';
  // Brotli first whenever accepted (smaller), whatever order the client lists them in.
  const enc =
    ctx.acceptsEncodings('br') === 'br' ? 'br' : ctx.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : null;
  if (enc) {
    ctx.set('Content-Encoding', enc);
    ctx.body = enc === 'br' ? asset.br : asset.gzip;
  } else {
    ctx.body = asset.json;
  }
}

/** If-None-Match: '*' or a list of (possibly weak) tags; a proxy may weaken ours in transit. */
function matches(header: string, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
