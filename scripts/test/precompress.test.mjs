// scripts/precompress.mjs: the brotli and gzip copies the H5 and admin builds get beside their
// assets, which the server's static routes send to clients that accept them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { precompress } from '../precompress.mjs';

test('copies text assets as brotli and gzip, skips what would not shrink, drops orphaned copies', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'precompress-'));
  try {
    mkdirSync(path.join(dir, 'js'));
    const big = Array.from({ length: 500 }, (_, i) => `const seat${i} = "第${i}排";`).join('\n');
    writeFileSync(path.join(dir, 'js/app.js'), big);
    writeFileSync(path.join(dir, 'small.css'), 'a{color:red}');
    writeFileSync(path.join(dir, 'noise.json'), randomBytes(4096));
    writeFileSync(path.join(dir, 'poster.png'), big); // not a text asset
    writeFileSync(path.join(dir, 'js/old.js.br'), 'left from an earlier build');

    const { plain, br } = precompress(dir);

    assert.equal(brotliDecompressSync(readFileSync(path.join(dir, 'js/app.js.br'))).toString(), big);
    assert.equal(gunzipSync(readFileSync(path.join(dir, 'js/app.js.gz'))).toString(), big);
    assert.ok(br < plain, `brotli ${br} of ${plain} bytes`);
    assert.ok(readFileSync(path.join(dir, 'js/app.js.br')).length < big.length / 4);
    assert.equal(existsSync(path.join(dir, 'small.css.br')), false, 'under 1 KB: not worth a copy');
    assert.equal(existsSync(path.join(dir, 'poster.png.br')), false, 'only text assets');
    assert.equal(existsSync(path.join(dir, 'js/old.js.br')), false, 'a copy whose file is gone');
    // Random bytes do not shrink: no copy is better than a bigger one.
    for (const ext of ['br', 'gz'])
      if (existsSync(path.join(dir, `noise.json.${ext}`)))
        assert.ok(
          readFileSync(path.join(dir, `noise.json.${ext}`)).length <
            readFileSync(path.join(dir, 'noise.json')).length,
        );

    // Run again (a rebuild over the same directory): the copies are not copied.
    precompress(dir);
    assert.equal(existsSync(path.join(dir, 'js/app.js.br.br')), false);

    // A rebuild that leaves a file too small to compress: its old copies must not be served.
    writeFileSync(path.join(dir, 'js/app.js'), 'console.log(1)');
    precompress(dir);
    assert.equal(existsSync(path.join(dir, 'js/app.js.br')), false, 'a stale brotli copy is left');
    assert.equal(existsSync(path.join(dir, 'js/app.js.gz')), false, 'a stale gzip copy is left');
  } finally {
    rmSync(dir, { recursive: true });
  }
});
