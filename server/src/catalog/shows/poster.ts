import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Db } from '../../db/pool';
import { appError } from '../../errors';
import { findPoster, insertPoster } from './repo';

/** Image types a poster may have, recognised by their first bytes rather than by what the upload claims. */
const SIGNATURES: { ext: string; type: string; test: (b: Buffer) => boolean }[] = [
  { ext: 'jpg', type: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    ext: 'png',
    type: 'image/png',
    test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  {
    ext: 'webp',
    type: 'image/webp',
    test: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

export async function readLimited(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes)
      throw appError(
        'PAYLOAD_TOO_LARGE',
        { maxBytes },
        `海报不能超过 ${Math.floor(maxBytes / 1024 / 1024)} MB`,
      );
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Stores an uploaded poster in the database (every instance serves it), named by its content
 * hash: uploading the same picture twice stores one row, and a stored poster never changes
 * (served as immutable).
 */
export async function storePoster(db: Db, body: Buffer): Promise<{ url: string; bytes: number }> {
  const kind = SIGNATURES.find((s) => s.test(body));
  if (!kind) throw appError('VALIDATION_FAILED', { field: 'poster' }, '海报须为 JPG、PNG 或 WebP 图片');
  const name = `${createHash('sha256').update(body).digest('hex').slice(0, 32)}.${kind.ext}`;
  await insertPoster(db, { name, contentType: kind.type, body });
  return { url: `/media/posters/${name}`, bytes: body.length };
}

export async function loadPoster(db: Db, name: string): Promise<{ type: string; body: Buffer } | undefined> {
  const p = await findPoster(db, name);
  return p && { type: p.contentType, body: p.body };
}
