import { stat } from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';
import type { Context } from 'koa';
import { send } from '@koa/send';
import type { AdminConfig } from '../../config/admin';
import type { Db } from '../../db/pool';
import { loadPoster } from '../../catalog/shows/poster';

const YEAR_MS = 365 * 24 * 3_600_000;

async function isFile(file: string): Promise<boolean> {
  return stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

/**
 * The built admin page under /admin (history fallback to index.html for client-side routes) and
 * uploaded posters (from the database) under /media/posters. Only GET routes under those two prefixes, so /api is
 * never shadowed. Vite names assets by content hash: they are cached for a year, index.html never.
 */
export function spaRoutes(cfg: AdminConfig, db: Db): Router {
  const r = new Router();
  const posters = path.join(cfg.dataDir, 'posters');
  r.get('/media/posters/:file', async (ctx) => {
    const file = ctx.params.file ?? '';
    if (!/^[\w-]{1,120}\.(jpg|png|webp)$/.test(file)) return;
    const stored = await loadPoster(db, file);
    if (stored) {
      // The name is the content hash: the answer never changes, so caches may keep it for a year.
      ctx.set('Cache-Control', `public, max-age=${YEAR_MS / 1000}, immutable`);
      ctx.set('ETag', `"${file}"`);
      ctx.type = stored.type;
      ctx.status = ctx.get('If-None-Match') === `"${file}"` ? 304 : 200;
      if (ctx.status === 200) ctx.body = stored.body;
      return;
    }
    // Posters uploaded to this instance's disk before they moved to the database.
    if (!(await isFile(path.join(posters, file)))) return;
    await send(ctx, file, { root: posters, maxage: YEAR_MS, immutable: true });
  });
  const serve = async (ctx: Context) => {
    // With ADMIN_HOST the page exists on that host only (its own origin, its own localStorage).
    if (cfg.host && ctx.hostname.toLowerCase() !== cfg.host) return;
    const rest = (ctx.params.rest as string[] | string | undefined) ?? [];
    const rel = Array.isArray(rest) ? rest.join('/') : rest;
    if (
      rel &&
      !rel.split('/').some((p) => p.startsWith('.')) &&
      (await isFile(path.join(cfg.distDir, rel)))
    ) {
      const hashed = rel.startsWith('assets/');
      // Sent as the build's brotli or gzip copy where the client takes one (scripts/precompress.mjs).
      ctx.vary('Accept-Encoding');
      await send(ctx, rel, { root: cfg.distDir, maxage: hashed ? YEAR_MS : 0, immutable: hashed });
      return;
    }
    if (rel.startsWith('assets/')) return; // a missing asset is a 404, not the page
    if (!(await isFile(path.join(cfg.distDir, 'index.html')))) {
      ctx.status = 503;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = '管理后台尚未构建：请先运行 npm run build:admin';
      return;
    }
    ctx.set('Cache-Control', 'no-cache');
    ctx.vary('Accept-Encoding');
    await send(ctx, 'index.html', { root: cfg.distDir });
  };
  r.get('/admin', serve);
  r.get('/admin/*rest', serve);
  return r;
}
