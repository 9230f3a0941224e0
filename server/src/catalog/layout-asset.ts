import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as z } from 'node:zlib';
import type { SeatLayout } from '@showtix/shared-types';
import { LRUCache } from 'lru-cache';
import type { SessionCatalog } from './types';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** One layout version, serialised and compressed once (never per request). */
export interface LayoutAsset {
  version: string;
  etag: string;
  json: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** The static part of a session's seat map: what never changes while seats are sold. */
export function layoutOf(cat: SessionCatalog): Omit<SeatLayout, 'version'> {
  return {
    sessionId: cat.id,
    seating: cat.seating,
    tiers: cat.tiers,
    seats: [...cat.seats.values()].map((s) => ({
      id: s.id,
      section: s.section,
      row: s.row,
      number: s.number,
      x: s.x,
      y: s.y,
      tierId: s.tierId,
    })),
    zones: [...cat.zones.values()].map((zn) => ({
      id: zn.id,
      name: zn.name,
      tierId: zn.tierId,
      capacity: zn.capacity,
    })),
  };
}

/**
 * Layout assets by content: the version is a hash of the layout itself, so every instance
 * names the same layout the same way without asking anyone, and an edited layout gets a new
 * URL. Built once per catalog object (a reloaded catalog with the same layout reuses the
 * compressed bytes of its version).
 */
export class LayoutAssets {
  private readonly byCatalog = new WeakMap<SessionCatalog, Promise<LayoutAsset>>();
  private readonly byVersion = new LRUCache<string, Promise<LayoutAsset>>({ max: 64 });

  get(cat: SessionCatalog): Promise<LayoutAsset> {
    let asset = this.byCatalog.get(cat);
    if (!asset) {
      asset = this.build(cat);
      this.byCatalog.set(cat, asset);
      asset.catch(() => this.byCatalog.delete(cat));
    }
    return asset;
  }

  private build(cat: SessionCatalog): Promise<LayoutAsset> {
    const body = layoutOf(cat);
    const version = createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 16);
    const cached = this.byVersion.get(version);
    if (cached) return cached;
    const made = compress(version, Buffer.from(JSON.stringify({ ...body, version })));
    this.byVersion.set(version, made);
    made.catch(() => this.byVersion.delete(version));
    return made;
  }
}

async function compress(version: string, json: Buffer): Promise<LayoutAsset> {
  const [br, gzipped] = await Promise.all([
    brotli(json, {
      params: {
        [z.BROTLI_PARAM_MODE]: z.BROTLI_MODE_TEXT,
        [z.BROTLI_PARAM_QUALITY]: 11,
        [z.BROTLI_PARAM_SIZE_HINT]: json.length,
      },
    }),
    gz(json, { level: 9 }),
  ]);
  return { version, etag: `"${version}"`, json, br, gzip: gzipped };
}
