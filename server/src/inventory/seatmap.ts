import type { SeatMap, SeatStates, SeatStatesReply } from '@showtix/shared-types';
import type { InventoryService } from './service';
import { LayoutAssets, layoutOf, type LayoutAsset } from '../catalog/layout-asset';
import { diffStates, SeatVersions } from './seat-delta';
import type { CatalogService } from '../catalog/service';
import { SESSION_STATUS, type SessionCatalog } from '../catalog/types';

type VersionedStates = SeatStates & { version: string; full: true };

interface Snapshot {
  at: number;
  value: Promise<VersionedStates>;
}

/**
 * Seat maps: the static layout from the catalog with live states from Redis. States are cached
 * per instance for seatStatesCacheMs, so a crowd refreshing one map costs Redis one HGETALL.
 */
export class SeatMapService {
  private readonly snapshots = new Map<string, Snapshot>();

  constructor(
    private readonly catalog: CatalogService,
    private readonly inventory: InventoryService,
    private readonly cacheMs: number,
    private readonly versions: SeatVersions,
    private readonly layouts = new LayoutAssets(),
  ) {}

  /** The static layout, serialised and compressed once per layout version. */
  async layout(sessionId: string): Promise<LayoutAsset> {
    return this.layouts.get(await this.catalog.requireSession(sessionId));
  }

  /** Drops this instance's snapshot of a session's states ('*': all of them). */
  forget(sessionId: string): void {
    if (sessionId === '*') this.snapshots.clear();
    else this.snapshots.delete(sessionId);
  }

  async seatMap(sessionId: string, nowMs: number): Promise<SeatMap> {
    const cat = await this.catalog.requireSession(sessionId);
    const live = await this.states(cat, nowMs);
    const held = new Set(live.held);
    const sold = new Set(live.sold);
    const zoneLeft = new Map(live.zones.map((z) => [z.id, z.available]));
    // The static layout (layoutOf) plus each seat's and zone's live state.
    const { seats, zones, ...rest } = layoutOf(cat);
    return {
      ...rest,
      layoutVersion: this.layouts.versionOf(cat),
      seats: seats.map((s) => ({
        ...s,
        state: sold.has(s.id) ? 'sold' : held.has(s.id) ? 'held' : 'available',
      })),
      zones: zones.map((z) => ({ ...z, available: zoneLeft.get(z.id) ?? z.capacity })),
    };
  }

  async seatStates(sessionId: string, nowMs: number): Promise<VersionedStates> {
    return this.states(await this.catalog.requireSession(sessionId), nowMs);
  }

  /**
   * States since the client's version: only the seats that changed, or the full list when
   * `since` is unknown or too old (its snapshot expired). Zones are always complete.
   */
  async seatStatesSince(
    sessionId: string,
    since: string | undefined,
    nowMs: number,
  ): Promise<SeatStatesReply> {
    const cat = await this.catalog.requireSession(sessionId);
    const cur = await this.states(cat, nowMs);
    const base = { sessionId: cur.sessionId, version: cur.version, since: since ?? '', full: false as const };
    if (since === cur.version) return { ...base, held: [], sold: [], available: [], zones: cur.zones };
    const before = since ? await this.versions.find(cur.sessionId, since) : null;
    // The full list names the layout's version, so a client can tell its cached layout is current.
    if (!before) return { ...cur, layoutVersion: this.layouts.versionOf(cat) };
    return { ...base, ...diffStates(before, cur), zones: cur.zones };
  }

  private states(cat: SessionCatalog, nowMs: number): Promise<VersionedStates> {
    // The cache ages in real time; nowMs (business time, injectable) only decides which holds expired.
    const at = performance.now();
    const hit = this.snapshots.get(cat.id);
    if (hit && at - hit.at < this.cacheMs) return hit.value;
    const value = this.load(cat, nowMs);
    this.snapshots.set(cat.id, { at, value });
    value.catch(() => this.snapshots.delete(cat.id));
    return value;
  }

  private async load(cat: SessionCatalog, nowMs: number): Promise<VersionedStates> {
    const s = await this.read(cat, nowMs);
    s.held.sort();
    s.sold.sort();
    const version = SeatVersions.versionOf(s);
    await this.versions.publish(cat.id, version, { held: s.held, sold: s.sold });
    return { ...s, version, full: true };
  }

  private async read(cat: SessionCatalog, nowMs: number): Promise<SeatStates> {
    const zoneIds = [...cat.zones.keys()];
    let live = await this.inventory.states(cat.id, zoneIds, nowMs);
    const selling = cat.status === SESSION_STATUS.ON_SALE || cat.status === SESSION_STATUS.SOLD_OUT;
    if (!live.loaded && selling) {
      await this.inventory.rebuild(cat.id, nowMs);
      live = await this.inventory.states(cat.id, zoneIds, nowMs);
    }
    if (!live.loaded) {
      // Not preheated yet (before the sale): nothing can have been sold.
      return {
        sessionId: cat.id,
        held: [],
        sold: [],
        zones: zoneIds.map((id) => ({ id, available: cat.zones.get(id)!.capacity })),
      };
    }
    return {
      sessionId: cat.id,
      held: live.held,
      sold: live.sold,
      zones: zoneIds.map((id) => ({ id, available: live.zones.get(id) ?? 0 })),
    };
  }
}
