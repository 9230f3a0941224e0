import { LRUCache } from 'lru-cache';
import type {
  SessionInfo,
  ShowCategory,
  ShowDetail,
  ShowSummary,
  SessionStatus,
  Tier,
} from '@showtix/shared-types';
import type { Db } from '../db/pool';
import { appError } from '../errors';
import {
  findShowRow,
  listShowRows,
  reloadSessionCatalog,
  sessionFields,
  allSessionRows,
  sessionRowById,
  sessionRowsOfShow,
  sessionRowsOfShows,
  tiersOfSessions,
  transitionSession,
  type SessionRecord,
  type CatalogShow,
} from './repo';
import { SESSION_STATUS, SESSION_STATUS_NAME, type SessionCatalog } from './types';

interface Cached<T> {
  at: number;
  value: Promise<T>;
  /** The value once loaded: the next reload keeps its seats if they did not change. */
  loaded?: T;
}

/** Catalogs kept per instance: far more sessions than sell at once, each up to 60,000 seats. */
const CATALOGS_CACHED_MAX = 500;
/** "No such session" answers kept: ids come from requests, so this is what a flood can fill. */
const MISSING_CACHED_MAX = 10_000;
/** After a '*' invalidation, catalogs load from the primary this long (far above an accepted replica lag). */
const ALL_EDITED_FRESH_MS = 10_000;

/**
 * Read side of shows and sessions. Session catalogs (seats, tiers, prices) are cached per
 * instance for catalogCacheMs: the purchase path prices orders from them without a query.
 * Both caches are bounded LRUs, and "not found" lives in its own: random ids in request paths
 * can neither grow memory without end nor evict the catalogs of the sessions on sale.
 */
export class CatalogService {
  private readonly sessions = new LRUCache<string, Cached<SessionCatalog | undefined>>({
    max: CATALOGS_CACHED_MAX,
  });
  private readonly missing = new LRUCache<string, Cached<undefined>>({ max: MISSING_CACHED_MAX });
  private readonly loading = new Map<string, Promise<SessionCatalog | undefined>>();
  /**
   * Sessions invalidated since their last load: the next load reads the primary, so a replica
   * a moment behind the edit cannot put the old catalog back for catalogCacheMs.
   */
  private readonly edited = new Set<string>();
  /** When every session was invalidated at once ('*'): loads read the primary for a while. */
  private allEditedAt = -Infinity;
  /** Applied to every catalog loaded: the degradation switches (a session forced through the queue). */
  overlay?: (cat: SessionCatalog) => SessionCatalog;

  /** broadcast: tells every instance (this one included) to forget a session; see cache/invalidation. */
  constructor(
    private readonly db: Db,
    private readonly cacheMs: number,
    private readonly broadcast?: (sessionId: string) => void,
    /** Reads that may be a second stale (show list, details, catalogs): a replica when fresh. */
    private readonly readDb: Db = db,
  ) {}

  session(sessionId: string, nowMs = Date.now()): Promise<SessionCatalog | undefined> {
    const hit = this.sessions.get(sessionId) ?? this.missing.get(sessionId);
    if (hit && nowMs - hit.at < this.cacheMs) return hit.value;
    const inFlight = this.loading.get(sessionId);
    if (inFlight) return inFlight;
    // Loads wait apart (bounded by the requests in flight) and settle into the LRU they belong
    // to, so a burst of unknown ids never pushes a live catalog out.
    const fresh = Date.now() - this.allEditedAt < ALL_EDITED_FRESH_MS || this.edited.has(sessionId);
    const previous = this.sessions.get(sessionId)?.loaded;
    const value = reloadSessionCatalog(fresh ? this.db : this.readDb, sessionId, previous).then((c) =>
      c && this.overlay ? this.overlay(c) : c,
    );
    this.loading.set(sessionId, value);
    value.then(
      (cat) => {
        // Invalidated while loading: the result may predate the change, so it is not kept.
        if (this.loading.get(sessionId) !== value) return;
        this.loading.delete(sessionId);
        if (fresh) this.edited.delete(sessionId);
        if (cat) this.sessions.set(sessionId, { at: nowMs, value, loaded: cat });
        else this.missing.set(sessionId, { at: nowMs, value: Promise.resolve(undefined) });
      },
      () => {
        if (this.loading.get(sessionId) === value) this.loading.delete(sessionId);
      },
    );
    return value;
  }

  async requireSession(sessionId: string): Promise<SessionCatalog> {
    const s = await this.session(sessionId);
    if (!s) throw appError('NOT_FOUND', undefined, '场次不存在');
    return s;
  }

  /** After an edit: every instance drops its copy of the session. */
  invalidate(sessionId: string): void {
    if (this.broadcast) this.broadcast(sessionId);
    else this.forget(sessionId);
  }

  /** Drops this instance's copy ('*': all of them). */
  forget(sessionId: string): void {
    if (this.readDb !== this.db) {
      if (sessionId !== '*' && this.edited.size < MISSING_CACHED_MAX) this.edited.add(sessionId);
      else this.allEditedAt = Date.now();
    }
    if (sessionId === '*') {
      this.sessions.clear();
      this.missing.clear();
      this.loading.clear();
      return;
    }
    this.sessions.delete(sessionId);
    this.missing.delete(sessionId);
    this.loading.delete(sessionId);
  }

  /** How many entries the caches hold (tests check they stay bounded). */
  cached(): { catalogs: number; missing: number } {
    return { catalogs: this.sessions.size, missing: this.missing.size };
  }

  /** The fan's show list; with a category, only that category's shows (and their sessions). */
  async listShows(category?: ShowCategory): Promise<ShowSummary[]> {
    const shows = await listShowRows(this.readDb, category);
    if (shows.length === 0) return [];
    const sessions = category
      ? await sessionRowsOfShows(
          this.readDb,
          shows.map((s) => s.id),
        )
      : await allSessionRows(this.readDb);
    const tiers = await tiersOfSessions(
      this.readDb,
      sessions.map((s) => s.id),
    );
    return shows.map((show) => {
      const own = sessions.filter((s) => s.showId === show.id);
      return summarize(show, own, tiers);
    });
  }

  async showDetail(showId: string): Promise<ShowDetail> {
    const show = await findShowRow(this.readDb, showId);
    if (!show) throw appError('NOT_FOUND', undefined, '演出不存在');
    const sessions = await sessionRowsOfShow(this.readDb, showId);
    const tiers = await tiersOfSessions(
      this.readDb,
      sessions.map((s) => s.id),
    );
    const infos = await Promise.all(sessions.map((s) => this.sessionInfo(s, tiers.get(s.id) ?? [])));
    return {
      ...summarize(show, sessions, tiers),
      description: show.description,
      venue: show.venue,
      wantCount: show.wantCount,
      refundRules: show.refundRules,
      exchangeRules: show.exchangeRules,
      sessions: infos,
    };
  }

  async sessionDetail(sessionId: string): Promise<SessionInfo> {
    const row = await sessionRowById(this.readDb, sessionId);
    if (!row) throw appError('NOT_FOUND', undefined, '场次不存在');
    const tiers = (await tiersOfSessions(this.readDb, [sessionId])).get(sessionId) ?? [];
    return this.sessionInfo(row, tiers);
  }

  private async sessionInfo(s: SessionRecord, tiers: Tier[]): Promise<SessionInfo> {
    const cat = await this.session(s.id);
    const fields = sessionFields(s);
    // The fan's app sends a session forced through the waiting room there (degradation switch).
    const queueEnabled = fields.queueEnabled || cat?.queueEnabled === true;
    return { ...fields, queueEnabled, seating: cat?.seating ?? 'reserved', tiers };
  }

  /** Sold-out and back, driven by what Redis says is left. Conditional, so races settle. */
  async markSoldOut(sessionId: string): Promise<boolean> {
    return transitionSession(this.db, sessionId, [SESSION_STATUS.ON_SALE], SESSION_STATUS.SOLD_OUT);
  }

  async markBackOnSale(sessionId: string): Promise<boolean> {
    return transitionSession(this.db, sessionId, [SESSION_STATUS.SOLD_OUT], SESSION_STATUS.ON_SALE);
  }
}

const STATUS_RANK: SessionStatus[] = ['on_sale', 'presale', 'sold_out', 'ended', 'cancelled'];

function summarize(show: CatalogShow, sessions: SessionRecord[], tiers: Map<string, Tier[]>): ShowSummary {
  const prices = sessions.flatMap((s) => (tiers.get(s.id) ?? []).map((t) => t.priceFen));
  const names = sessions.map((s) => SESSION_STATUS_NAME[s.status]!);
  const status = STATUS_RANK.find((st) => names.includes(st)) ?? 'ended';
  const upcoming = sessions.filter((s) => s.status === SESSION_STATUS.PRESALE).map((s) => s.saleStartsAt);
  const starts = sessions.map((s) => s.startsAt.getTime());
  return {
    id: show.id,
    title: show.title,
    category: show.category,
    city: show.venue.city,
    venueName: show.venue.name,
    posterUrl: show.posterUrl,
    firstStartsAt: starts.length ? new Date(Math.min(...starts)).toISOString() : null,
    lastStartsAt: starts.length ? new Date(Math.max(...starts)).toISOString() : null,
    priceMinFen: prices.length ? Math.min(...prices) : null,
    priceMaxFen: prices.length ? Math.max(...prices) : null,
    status,
    nextSaleStartsAt: upcoming.length
      ? new Date(Math.min(...upcoming.map((d) => d.getTime()))).toISOString()
      : null,
  };
}
