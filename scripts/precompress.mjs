#!/usr/bin/env node
/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text asset of a built web page
 * (node scripts/precompress.mjs <dir>): the fan's H5 build and the admin page. The server's
 * static routes (@koa/send) then answer a browser that accepts br or gzip with the copy, so the
 * fan's ~500 KB of script arrives as ~150 KB without compressing anything per request. Once,
 * at build time, at the slowest and smallest settings. A copy no smaller than its file is not
 * written; copies whose file is gone, or is now too small or not text, are removed.
 */
import { readFileSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync, constants as z } from 'node:zlib';

const TEXT = /\.(js|mjs|css|html|svg|json|txt|map)$/;
/** Smaller files gain less than the Content-Encoding header and a lookup cost. */
const MIN_BYTES = 1024;

function* files(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else yield p;
  }
}

/** Compresses every text asset under `dir`; returns the bytes before and after (brotli). */
export function precompress(dir) {
  let plain = 0;
  let br = 0;
  for (const file of [...files(dir)]) {
    if (/\.(br|gz)$/.test(file)) {
      if (!existsSync(file.slice(0, -path.extname(file).length))) rmSync(file);
      continue;
    }
    if (!TEXT.test(file) || statSync(file).size < MIN_BYTES) {
      // A file rebuilt too small to gain keeps no copy of its earlier, bigger self.
      for (const ext of ['br', 'gz']) rmSync(`${file}.${ext}`, { force: true });
      continue;
    }
    const body = readFileSync(file);
    const copies = {
      br: brotliCompressSync(body, {
        params: {
          [z.BROTLI_PARAM_QUALITY]: z.BROTLI_MAX_QUALITY,
          [z.BROTLI_PARAM_SIZE_HINT]: body.length,
          [z.BROTLI_PARAM_MODE]: z.BROTLI_MODE_TEXT,
        },
      }),
      gz: gzipSync(body, { level: z.Z_BEST_COMPRESSION }),
    };
    plain += body.length;
    br += Math.min(copies.br.length, body.length);
    for (const [ext, copy] of Object.entries(copies)) {
      if (copy.length < body.length) writeFileSync(`${file}.${ext}`, copy);
      else rmSync(`${file}.${ext}`, { force: true });
    }
  }
  return { plain, br };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2];
  if (!dir || !existsSync(dir)) {
    console.error('usage: precompress.mjs <built directory>');
    process.exit(2);
  }
  const { plain, br } = precompress(dir);
  console.log(`precompressed ${dir}: ${plain} B of text assets, ${br} B as brotli`);
}
