import { waitingPerTier } from '../waitlist/repo';
import type { Conn, Db } from '../db/pool';
import { byKey } from '../db/sql';
import type {
  Agg,
  Cols,
  PriceTierRow,
  SessionRow,
  ShowDbRow,
  VenueRow,
  VenueSeatRow,
  VenueZoneRow,
} from './rows';
import { SESSION_STATUS_NAME, type CatalogSeat, type CatalogZone, type SessionCatalog } from './types';
import type { RefundTier, SessionInfo, ShowCategory, ShowDetail, Tier } from '@showtix/shared-types';
import { camelRow, type Camelized, type Packet } from '../db/rows';

/** A session as the catalog and the admin's session pages see it (show_sessions, camelCase). */
export type SessionRecord = Camelized<SessionRow>;

/** Exported for catalog/sessions/repo.ts, the other reader of show_sessions. */
export const toSession: (r: SessionRow) => SessionRecord = camelRow;

/** What the fan's and the admin's views of a session both say about it. */
export function sessionFields(s: SessionRecord): Omit<SessionInfo, 'seating' | 'tiers'> {
  return {
    id: s.id,
    showId: s.showId,
    startsAt: s.startsAt.toISOString(),
    saleStartsAt: s.saleStartsAt.toISOString(),
    status: SESSION_STATUS_NAME[s.status]!,
    purchaseLimit: s.purchaseLimit,
    realName: s.realName === 1,
    queueEnabled: s.queueEnabled === 1,
    holdMinutes: s.holdMinutes,
    ...(s.postponedFrom ? { postponedFrom: s.postponedFrom.toISOString() } : {}),
    ...(s.fullRefundUntil ? { fullRefundUntil: s.fullRefundUntil.toISOString() } : {}),
  };
}

/** The columns of a show that showBasics reads. */
type ShowBasicsRow = Cols<
  ShowDbRow,
  | 'id'
  | 'title'
  | 'category'
  | 'description'
  | 'poster_url'
  | 'refund_rules'
  | 'exchange_allowed'
  | 'exchange_cutoff_minutes'
>;

/** A show with its venue (shows joined to venues), as the fan's catalog reads it. */
type ShowListRow = ShowBasicsRow &
  Pick<ShowDbRow, 'venue_id'> &
  Pick<VenueRow, 'city' | 'address' | 'latitude' | 'longitude'> & {
    venue_name: string;
    /** Only from findShowRow. */
    want_count?: Agg;
  };

/** What the fan's catalog and the organiser's show screens both say of a show. */
export function showBasics(r: ShowBasicsRow) {
  return {
    id: r.id,
    title: r.title,
    category: r.category,
    description: r.description ?? '',
    posterUrl: r.poster_url,
    refundRules: parseRefundRules(r.refund_rules),
    exchangeRules: { allowed: !!r.exchange_allowed, cutoffMinutes: Number(r.exchange_cutoff_minutes) },
  };
}

/**
 * A show as the fan's catalog shows it: the show page's venue and 想看 count (wantCount 0 in the
 * show list, which does not count them) beside its basics.
 */
export type CatalogShow = ReturnType<typeof showBasics> & Pick<ShowDetail, 'venue' | 'wantCount'>;

function catalogShow(r: ShowListRow): CatalogShow {
  return {
    ...showBasics(r),
    venue: {
      id: r.venue_id,
      name: r.venue_name,
      city: r.city,
      address: r.address,
      latitude: r.latitude === null ? null : Number(r.latitude),
      longitude: r.longitude === null ? null : Number(r.longitude),
    },
    wantCount: Number(r.want_count ?? 0),
  };
}

const SHOW_COLUMNS = `s.id, s.title, s.category, s.description, s.poster_url, s.refund_rules, s.exchange_allowed,
  s.exchange_cutoff_minutes, s.venue_id,
  v.name AS venue_name, v.city, v.address, v.latitude, v.longitude`;

/** Every show, or only those of one category (the fan's ?category= filter). */
export async function listShowRows(db: Db, category?: ShowCategory): Promise<CatalogShow[]> {
  const [rows] = await db.query<ShowListRow[]>(
    `SELECT ${SHOW_COLUMNS} FROM shows s JOIN venues v ON v.id = s.venue_id
      ${category ? 'WHERE s.category = ?' : ''} ORDER BY s.id`,
    category ? [category] : [],
  );
  return rows.map(catalogShow);
}

export async function findShowRow(db: Db, showId: string): Promise<CatalogShow | undefined> {
  const [rows] = await db.query<ShowListRow[]>(
    `SELECT ${SHOW_COLUMNS}, (SELECT COUNT(*) FROM sale_reminders r WHERE r.show_id = s.id) AS want_count
       FROM shows s JOIN venues v ON v.id = s.venue_id WHERE s.id = ?`,
    [showId],
  );
  return rows[0] && catalogShow(rows[0]);
}

/** The one reader of session rows; each caller below names its condition (always code, never input). */
async function sessionRows(db: Db, where: string, params: unknown[]): Promise<SessionRecord[]> {
  const [rows] = await db.query<Packet<SessionRow>[]>(
    `SELECT id, show_id, starts_at, sale_starts_at, status, purchase_limit, hold_minutes, real_name,
            queue_enabled, queue_rate_per_min, postponed_from, full_refund_until
       FROM show_sessions WHERE ${where} ORDER BY starts_at, id`,
    params,
  );
  return rows.map(toSession);
}

export async function sessionRowById(db: Db, sessionId: string): Promise<SessionRecord | undefined> {
  return (await sessionRows(db, 'id = ?', [sessionId]))[0];
}

export function sessionRowsOfShow(db: Db, showId: string): Promise<SessionRecord[]> {
  return sessionRows(db, 'show_id = ?', [showId]);
}

export function sessionRowsOfShows(db: Db, showIds: string[]): Promise<SessionRecord[]> {
  return sessionRows(db, 'show_id IN (?)', [showIds]);
}

export function allSessionRows(db: Db): Promise<SessionRecord[]> {
  return sessionRows(db, '1 = 1', []);
}

/** Sessions in `status` whose sale start has come (the lifecycle opens presales with it). */
export function sessionsSaleStarted(db: Db, status: number, now: Date): Promise<SessionRecord[]> {
  return sessionRows(db, 'status = ? AND sale_starts_at <= ?', [status, now]);
}

/** Sessions in one of `statuses` that have started (the lifecycle ends them). */
export function sessionsStarted(db: Db, statuses: number[], now: Date): Promise<SessionRecord[]> {
  return sessionRows(db, 'status IN (?) AND starts_at <= ?', [statuses, now]);
}

export function sessionsInStatus(db: Db, statuses: number[]): Promise<SessionRecord[]> {
  return sessionRows(db, 'status IN (?)', [statuses]);
}

export async function tiersOfSessions(db: Db, sessionIds: string[]): Promise<Map<string, Tier[]>> {
  const out = new Map<string, Tier[]>();
  if (sessionIds.length === 0) return out;
  const [rows] = await db.query<Cols<PriceTierRow, 'id' | 'session_id' | 'name' | 'price_fen' | 'color'>[]>(
    `SELECT id, session_id, name, price_fen, color FROM price_tiers
      WHERE session_id IN (?) ORDER BY sort_order, price_fen DESC, id`,
    [sessionIds],
  );
  for (const r of rows) {
    const list = out.get(r.session_id) ?? [];
    list.push({ id: r.id, name: r.name, priceFen: r.price_fen, ...(r.color ? { color: r.color } : {}) });
    out.set(r.session_id, list);
  }
  return out;
}

async function seatsOf(
  db: Db,
  sessionId: string,
  price: Map<string, number>,
): Promise<Map<string, CatalogSeat>> {
  type SeatRow = Cols<VenueSeatRow, 'id' | 'section' | 'row_label' | 'seat_number' | 'x' | 'y'>;
  const [rows] = await db.query<(SeatRow & { tier_id: string })[]>(
    `SELECT vs.id, vs.section, vs.row_label, vs.seat_number, vs.x, vs.y, ss.tier_id
       FROM session_seats ss JOIN venue_seats vs ON vs.id = ss.seat_id
      WHERE ss.session_id = ? ORDER BY vs.id`,
    [sessionId],
  );
  const seats = new Map<string, CatalogSeat>();
  for (const r of rows) {
    seats.set(r.id, {
      id: r.id,
      section: r.section,
      row: r.row_label,
      number: r.seat_number,
      x: r.x,
      y: r.y,
      tierId: r.tier_id,
      priceFen: price.get(r.tier_id)!,
    });
  }
  return seats;
}

async function zonesOf(
  db: Db,
  sessionId: string,
  price: Map<string, number>,
): Promise<Map<string, CatalogZone>> {
  const [rows] = await db.query<
    (Cols<VenueZoneRow, 'id' | 'name'> & { tier_id: string; capacity: number })[]
  >(
    `SELECT vz.id, vz.name, sz.tier_id, sz.capacity
       FROM session_zones sz JOIN venue_zones vz ON vz.id = sz.zone_id
      WHERE sz.session_id = ? ORDER BY vz.id`,
    [sessionId],
  );
  const zones = new Map<string, CatalogZone>();
  for (const r of rows) {
    zones.set(r.id, {
      id: r.id,
      name: r.name,
      tierId: r.tier_id,
      capacity: r.capacity,
      priceFen: price.get(r.tier_id)!,
    });
  }
  return zones;
}

/**
 * A session's seats summed up in one row: the count and two sums of CRC32s of (seat, tier). A
 * reload that finds it unchanged keeps the seat map it has instead of reading 10,000 rows again.
 * session_seats alone decides it: a venue's seats are never updated, and are deleted only while
 * no session uses them (the foreign key; admin/venues), and seat ids are never reused. Without
 * the join the row costs MySQL about a quarter of the seats query (5-7 vs 20-25 ms of CPU for
 * 10,000 seats) and the server a tenth (about 2 vs 21 ms).
 */
async function seatsSignature(db: Db, sessionId: string): Promise<string> {
  const [[r]] = await db.query<Packet<{ n: Agg; a: Agg; b: Agg }>[]>(
    `SELECT COUNT(*) AS n, COALESCE(SUM(CRC32(CONCAT(seat_id, '|', tier_id))), 0) AS a,
            COALESCE(SUM(CRC32(CONCAT(tier_id, '#', seat_id))), 0) AS b
       FROM session_seats WHERE session_id = ?`,
    [sessionId],
  );
  return `${r!.n}:${r!.a}:${r!.b}`;
}

/** The signature (seatsSignature) each seat map loaded by reloadSessionCatalog was read under. */
const seatSignatures = new WeakMap<Map<string, CatalogSeat>, string>();

/**
 * Seats for the catalog cache: the previous load's when its signature and every tier's price
 * are unchanged, else read afresh. The signature is read first, so an edit landing between the
 * two reads leaves an old signature beside new seats, and the next reload reads them again.
 */
async function cachedSeats(
  db: Db,
  sessionId: string,
  price: Map<string, number>,
  previous: SessionCatalog | undefined,
): Promise<Map<string, CatalogSeat>> {
  const signature = await seatsSignature(db, sessionId);
  const samePrices =
    previous !== undefined &&
    previous.tiers.length === price.size &&
    previous.tiers.every((t) => price.get(t.id) === t.priceFen);
  if (samePrices && seatSignatures.get(previous.seats) === signature) return previous.seats;
  const seats = await seatsOf(db, sessionId, price);
  seatSignatures.set(seats, signature);
  return seats;
}

export function loadSessionCatalog(db: Db, sessionId: string): Promise<SessionCatalog | undefined> {
  return loadCatalog(db, sessionId, { cached: false });
}

/**
 * The catalog cache's load (catalog/service.ts): as loadSessionCatalog, but a session whose
 * seats are as `previous` had them keeps that seat map. Each 10,000-seat reload (every
 * catalogCacheMs per session on sale) was the server's largest own entry in the flash-sale
 * profile, with its rows' parsing and garbage behind it.
 */
export function reloadSessionCatalog(
  db: Db,
  sessionId: string,
  previous: SessionCatalog | undefined,
): Promise<SessionCatalog | undefined> {
  return loadCatalog(db, sessionId, { cached: true, previous });
}

async function loadCatalog(
  db: Db,
  sessionId: string,
  o: { cached: boolean; previous?: SessionCatalog | undefined },
): Promise<SessionCatalog | undefined> {
  const s = await sessionRowById(db, sessionId);
  if (!s) return undefined;
  const tiers = (await tiersOfSessions(db, [sessionId])).get(sessionId) ?? [];
  const price = new Map(tiers.map((t) => [t.id, t.priceFen]));
  const seats = o.cached
    ? await cachedSeats(db, sessionId, price, o.previous)
    : await seatsOf(db, sessionId, price);
  const zones = await zonesOf(db, sessionId, price);
  const [[show]] = await db.query<Cols<ShowDbRow, 'show_purchase_limit'>[]>(
    'SELECT show_purchase_limit FROM shows WHERE id = ?',
    [s.showId],
  );
  let capacity = seats.size;
  for (const z of zones.values()) capacity += z.capacity;
  return {
    id: s.id,
    showId: s.showId,
    startsAt: s.startsAt,
    saleStartsAt: s.saleStartsAt,
    status: s.status,
    purchaseLimit: s.purchaseLimit,
    holdMinutes: s.holdMinutes,
    realName: s.realName === 1,
    queueEnabled: s.queueEnabled === 1,
    queueRatePerMin: s.queueRatePerMin,
    seating: seats.size > 0 ? 'reserved' : 'zone',
    tiers,
    seats,
    zones,
    capacity,
    showPurchaseLimit: show?.show_purchase_limit ?? null,
    waitlistedTiers: new Set((await waitingPerTier(db, sessionId)).keys()),
  };
}

/** Moves a session between statuses only from the expected ones (safe with many instances). */
export async function transitionSession(
  db: Db | Conn,
  sessionId: string,
  from: number[],
  to: number,
): Promise<boolean> {
  const [res] = await db.query<import('mysql2').ResultSetHeader>(
    `UPDATE ${byKey('show_sessions')} SET status = ? WHERE id = ? AND status IN (?)`,
    [to, sessionId, from],
  );
  return res.affectedRows === 1;
}

export function parseRefundRules(text: string | null): RefundTier[] {
  if (!text) return [];
  try {
    const parsed = JSON.parse(text) as RefundTier[];
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}
