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

/** The two compressions of a layout's JSON (LAYOUT_COMPRESSION; a test may give its own). */
export interface LayoutCompression {
  brotli(json: Buffer, quality: number): Promise<Buffer>;
  gzip(json: Buffer): Promise<Buffer>;
}

/** node:zlib in libuv's thread pool, off the event loop. */
export const LAYOUT_COMPRESSION: LayoutCompression = {
  brotli: (json, quality) =>
    brotli(json, {
      params: {
        [z.BROTLI_PARAM_MODE]: z.BROTLI_MODE_TEXT,
        [z.BROTLI_PARAM_QUALITY]: quality,
        [z.BROTLI_PARAM_SIZE_HINT]: json.length,
      },
    }),
  gzip: (json) => gz(json, { level: 9 }),
};

/**
 * Brotli's qualities for a layout: the first request for a layout version on an instance waits
 * for its bytes, so they are made at the quick quality; the best one follows in the background
 * and replaces them for later requests. For the seat-map benchmark's 10,000 seats (939 kB of
 * JSON, `node bench/seatmap/compress.mjs`, 2026-12-07): quality 6 gave 46,572 bytes in 13 ms of
 * CPU, quality 11 32,903 bytes in 1,271 ms, and every quality between 6 and 9 about 46,000.
 */
export const layoutBrotliQuickQuality = 6;
export const layoutBrotliBestQuality = 11;

/** A catalog's layout as served: its version and its JSON, which names that version. */
interface Serialized {
  version: string;
  json: Buffer;
}

/**
 * Layout assets by content: the version is a hash of the layout itself, so every instance
 * names the same layout the same way without asking anyone, and an edited layout gets a new
 * URL. Serialised once per catalog object, compressed once per version (a reloaded catalog
 * with the same layout reuses the compressed bytes of its version).
 *
 * The version is known as soon as the layout is serialised, before any compression: a seat
 * map or a full list of seat states, which only name the version, never wait for the bytes
 * (versionOf). Only the layout's own URL does (get), and only for the quick compression. Its
 * ETag names the content, not the bytes: the same for brotli at either quality, gzip and plain
 * JSON, as If-None-Match compares (RFC 9110 weak comparison), so a client's copy stays valid
 * when the smaller bytes replace the quick ones.
 */
export class LayoutAssets {
  private readonly serialized = new WeakMap<SessionCatalog, Serialized>();
  private readonly byVersion = new LRUCache<string, Promise<LayoutAsset>>({ max: 64 });

  constructor(private readonly compression: LayoutCompression = LAYOUT_COMPRESSION) {}

  /** The layout's version (a hash of its content), without waiting for its compressed bytes. */
  versionOf(cat: SessionCatalog): string {
    return this.serialize(cat).version;
  }

  get(cat: SessionCatalog): Promise<LayoutAsset> {
    const { version, json } = this.serialize(cat);
    const cached = this.byVersion.get(version);
    if (cached) return cached;
    const made = this.compress(version, json);
    this.byVersion.set(version, made);
    made.then(
      (quick) => void this.refine(quick),
      () => this.byVersion.delete(version),
    );
    return made;
  }

  private serialize(cat: SessionCatalog): Serialized {
    let s = this.serialized.get(cat);
    if (!s) {
      const body = layoutOf(cat);
      const version = createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 16);
      s = { version, json: Buffer.from(JSON.stringify({ ...body, version })) };
      this.serialized.set(cat, s);
    }
    return s;
  }

  private async compress(version: string, json: Buffer): Promise<LayoutAsset> {
    const [br, gzipped] = await Promise.all([
      this.compression.brotli(json, layoutBrotliQuickQuality),
      this.compression.gzip(json),
    ]);
    return { version, etag: `"${version}"`, json, br, gzip: gzipped };
  }

  /** The best brotli bytes in place of the quick ones, once made; on failure the quick ones stay. */
  private async refine(quick: LayoutAsset): Promise<void> {
    let br: Buffer;
    try {
      br = await this.compression.brotli(quick.json, layoutBrotliBestQuality);
    } catch {
      return;
    }
    // Only while this version is still cached: an evicted one is compressed again when asked for.
    if (this.byVersion.has(quick.version))
      this.byVersion.set(quick.version, Promise.resolve({ ...quick, br }));
  }
}
