import { brotliDecompressSync } from 'node:zlib';
import {
  LAYOUT_COMPRESSION,
  LayoutAssets,
  layoutBrotliBestQuality as best,
  layoutBrotliQuickQuality as quick,
  type LayoutCompression,
} from '../src/catalog/layout-asset';
import { SeatVersions } from '../src/inventory/seat-delta';
import { SeatMapService } from '../src/inventory/seatmap';
import { createTestEnv, finishedWithin, type TestEnv } from './helpers/env';
import { createSession, type SessionFixture } from './helpers/fixtures';

/**
 * The layout's compressed bytes are built on the first request for them, and that request waits
 * for them (brotli at its highest quality took 1.3 s of CPU for 10,000 seats). A seat map and a
 * full list of seat states only name the layout's version: they must answer without waiting for,
 * or even starting, that compression. Here the compression never finishes; with the version
 * taken from the compressed asset (as until 2026-12-07) both calls hang. The layout's own first
 * request waits only for the quick compression; the smallest bytes follow.
 */
let env: TestEnv;
let s: SessionFixture;
beforeAll(async () => {
  env = await createTestEnv();
  s = await createSession(env.deps, { seats: 40, zones: [{ name: '内场站席', capacity: 5 }] });
});
afterAll(async () => env.close());

/** The real compressions, each recorded (brotli by quality), with `brotli` in place for some. */
function recorded(brotli?: (q: number) => Promise<Buffer> | undefined) {
  const calls: string[] = [];
  const made: Promise<Buffer>[] = [];
  const compression: LayoutCompression = {
    brotli: (json, q) => {
      calls.push(`br${q}`);
      const p = brotli?.(q) ?? LAYOUT_COMPRESSION.brotli(json, q);
      made.push(p);
      return p;
    },
    gzip: (json) => (calls.push('gzip'), LAYOUT_COMPRESSION.gzip(json)),
  };
  return { calls, made, compression };
}

const never = () => new Promise<Buffer>(() => undefined);

/** Answers within 5 s: the compression never finishes, so waiting for it fails here, named. */
const answers = <T>(what: string, p: Promise<T>) =>
  finishedWithin(`${what} (waiting for the layout's compression?)`, p, 5000);

function seatMapsWith(layouts: LayoutAssets): SeatMapService {
  const d = env.deps;
  return new SeatMapService(d.catalog, d.inventory, 0, new SeatVersions(d.redis, d.keys), layouts);
}

describe('seat map and seat states: the layout version without the compressed bytes', () => {
  it('name the version the layout URL serves, and never start the compression', async () => {
    const stuck = recorded(never);
    const maps = seatMapsWith(new LayoutAssets(stuck.compression));
    const now = env.clock.now().getTime();
    const states = await answers(
      'a full list of seat states',
      maps.seatStatesSince(s.sessionId, undefined, now),
    );
    const map = await answers('a seat map', maps.seatMap(s.sessionId, now));

    const served = await new LayoutAssets().get(await env.deps.catalog.requireSession(s.sessionId));
    expect(states.full).toBe(true);
    expect(states.full && states.layoutVersion).toBe(served.version);
    expect(map.layoutVersion).toBe(served.version);
    expect(map.seats).toHaveLength(40);
    expect(stuck.calls).toEqual([]);
  });

  it('the layout: quick bytes for its first requests, then the smallest, one ETag', async () => {
    const r = recorded();
    const maps = seatMapsWith(new LayoutAssets(r.compression));
    const [a, b] = await Promise.all([maps.layout(s.sessionId), maps.layout(s.sessionId)]);
    expect(a).toBe(b);
    // The best quality starts as soon as the quick bytes are made, before anyone asks again.
    expect(r.calls).toEqual([`br${quick}`, 'gzip', `br${best}`]);
    await Promise.all(r.made);
    await new Promise((resolve) => setImmediate(resolve));
    const c = await maps.layout(s.sessionId);
    expect(c).not.toBe(a);
    expect(c.br).toEqual(await r.made[1]);
    expect([c.etag, c.version, c.gzip, c.json]).toEqual([a.etag, a.version, a.gzip, a.json]);
    expect(brotliDecompressSync(a.br)).toEqual(a.json);
    expect(brotliDecompressSync(c.br)).toEqual(a.json);
    expect(JSON.parse(a.json.toString()).version).toBe(a.version);
    expect(a.etag).toBe(`"${a.version}"`);
    await maps.layout(s.sessionId);
    expect(r.calls).toHaveLength(3); // compressed once per version
  });

  it('keeps the quick bytes when the best compression fails', async () => {
    const r = recorded((q) => (q === best ? Promise.reject(new Error('zlib failed')) : undefined));
    const maps = seatMapsWith(new LayoutAssets(r.compression));
    const a = await maps.layout(s.sessionId);
    await Promise.allSettled(r.made);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await maps.layout(s.sessionId)).toBe(a);
  });
});
