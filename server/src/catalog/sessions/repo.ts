import type { ResultSetHeader } from 'mysql2/promise';
import type { AdminSessionSummary, AdminTier } from '@showtix/shared-types';
import type { Conn, Db } from '../../db/pool';
import { sessionFields, toSession, type SessionRecord } from '../repo';
import { insertChunks } from '../admin-repo';
import { updateById } from '../../db/update-by-id';
import type {
  Agg,
  Cols,
  PriceTierRow,
  SessionRow,
  SessionSeatRow,
  SessionZoneRow,
  ShowDbRow,
  VenueSeatRow,
  VenueZoneRow,
} from '../rows';
import { columnsOf, type Packet } from '../../db/rows';

type Q = Db | Conn;

/** Orders holding units: pending, paid or ticketed. */
export const LIVE_ORDER = '(1, 2, 3)';

export async function findSession(c: Q, id: string, lock = false): Promise<SessionRecord | undefined> {
  const [rows] = await c.query<Packet<SessionRow>[]>(
    `SELECT * FROM show_sessions WHERE id = ?${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] && toSession(rows[0]);
}

/** A session as the audit log records it: its row's columns (SELECT *), as it always has. */
export const sessionAuditRow: (s: SessionRecord) => Record<string, unknown> = columnsOf;

async function tiersOf(c: Q, sessionIds: string[]): Promise<Map<string, AdminTier[]>> {
  const out = new Map<string, AdminTier[]>();
  if (!sessionIds.length) return out;
  type TierRow = Cols<PriceTierRow, 'id' | 'session_id' | 'name' | 'price_fen' | 'color'>;
  const [rows] = await c.query<
    (TierRow & { seat_count: Agg; zone_name: string | null; zone_capacity: number | null })[]
  >(
    `SELECT t.id, t.session_id, t.name, t.price_fen, t.color,
        (SELECT COUNT(*) FROM session_seats x WHERE x.session_id = t.session_id AND x.tier_id = t.id) AS seat_count,
        vz.name AS zone_name, sz.capacity AS zone_capacity
       FROM price_tiers t
       LEFT JOIN session_zones sz ON sz.session_id = t.session_id AND sz.tier_id = t.id
       LEFT JOIN venue_zones vz ON vz.id = sz.zone_id
      WHERE t.session_id IN (?) ORDER BY t.sort_order, t.id`,
    [sessionIds],
  );
  // From orders (indexed by session) to their items: order_items has no index by tier.
  const [claimed] = await c.query<Packet<{ tier_id: string; n: Agg }>[]>(
    `SELECT i.tier_id, COUNT(*) AS n FROM orders o JOIN order_items i ON i.order_id = o.id
      WHERE o.session_id IN (?) AND o.status IN ${LIVE_ORDER} GROUP BY i.tier_id`,
    [sessionIds],
  );
  const claimedByTier = new Map(claimed.map((r) => [String(r.tier_id), Number(r.n)]));
  for (const r of rows) {
    const seatCount = Number(r.seat_count);
    const list = out.get(r.session_id) ?? [];
    list.push({
      id: r.id,
      name: r.name,
      priceFen: r.price_fen,
      ...(r.color ? { color: r.color } : {}),
      seatCount,
      zoneName: r.zone_name ?? null,
      capacity: seatCount + Number(r.zone_capacity ?? 0),
      claimed: claimedByTier.get(r.id) ?? 0,
    });
    out.set(r.session_id, list);
  }
  return out;
}

/** The admin's view of one session, or undefined. */
export async function sessionSummaryById(c: Q, id: string): Promise<AdminSessionSummary | undefined> {
  return (await sessionSummaries(c, 'ss.id = ?', [id]))[0];
}

/** The admin's view of every session of a show, by start time. */
export function sessionSummariesOfShow(c: Q, showId: string): Promise<AdminSessionSummary[]> {
  return sessionSummaries(c, 'ss.show_id = ?', [showId]);
}

/** Each caller above names its condition (always code, never input). */
async function sessionSummaries(c: Q, where: string, params: unknown[]): Promise<AdminSessionSummary[]> {
  const [rows] = await c.query<Packet<SessionRow>[]>(
    `SELECT ss.* FROM show_sessions ss WHERE ${where} ORDER BY ss.starts_at, ss.id`,
    params,
  );
  const tiers = await tiersOf(
    c,
    rows.map((r) => r.id),
  );
  return rows.map(toSession).map((s) => {
    const own = tiers.get(s.id) ?? [];
    return {
      ...sessionFields(s),
      queueRatePerMin: s.queueRatePerMin,
      rebindFreezeMinutes: s.rebindFreezeMinutes ?? null,
      capacity: own.reduce((n, t) => n + t.capacity, 0),
      tiers: own,
    };
  });
}

export interface CurrentTiers {
  venueId: string;
  showTitle: string;
  tiers: { id: string; name: string; priceFen: number; sortOrder: number }[];
  seatTier: Map<string, string>;
  /** zone id -> tier id */
  zoneTier: Map<string, string>;
  venueSeats: Map<string, string>;
  venueZones: Map<string, { id: string; capacity: number }>;
}

export async function currentTiers(c: Q, sessionId: string, showId: string): Promise<CurrentTiers> {
  const [[show]] = await c.query<Cols<ShowDbRow, 'title' | 'venue_id'>[]>(
    'SELECT title, venue_id FROM shows WHERE id = ?',
    [showId],
  );
  const venueId = String(show!.venue_id);
  const [tiers] = await c.query<Cols<PriceTierRow, 'id' | 'name' | 'price_fen' | 'sort_order'>[]>(
    'SELECT id, name, price_fen, sort_order FROM price_tiers WHERE session_id = ? ORDER BY sort_order, id',
    [sessionId],
  );
  const [seats] = await c.query<Cols<SessionSeatRow, 'seat_id' | 'tier_id'>[]>(
    'SELECT seat_id, tier_id FROM session_seats WHERE session_id = ?',
    [sessionId],
  );
  const [zones] = await c.query<Cols<SessionZoneRow, 'zone_id' | 'tier_id'>[]>(
    'SELECT zone_id, tier_id FROM session_zones WHERE session_id = ?',
    [sessionId],
  );
  const [vSeats] = await c.query<Cols<VenueSeatRow, 'id' | 'section' | 'row_label' | 'seat_number'>[]>(
    'SELECT id, section, row_label, seat_number FROM venue_seats WHERE venue_id = ?',
    [venueId],
  );
  const [vZones] = await c.query<Cols<VenueZoneRow, 'id' | 'name' | 'capacity'>[]>(
    'SELECT id, name, capacity FROM venue_zones WHERE venue_id = ?',
    [venueId],
  );
  return {
    venueId,
    showTitle: show!.title,
    tiers: tiers.map((t) => ({ id: t.id, name: t.name, priceFen: t.price_fen, sortOrder: t.sort_order })),
    seatTier: new Map(seats.map((s) => [s.seat_id, s.tier_id])),
    zoneTier: new Map(zones.map((z) => [z.zone_id, z.tier_id])),
    venueSeats: new Map(vSeats.map((s) => [s.id, `${s.section}区${s.row_label}排${s.seat_number}号`])),
    venueZones: new Map(vZones.map((z) => [z.name, { id: z.id, capacity: z.capacity }])),
  };
}

export interface Claims {
  /** seat id -> tier id of seats in live orders */
  seats: Map<string, string>;
  /** zone id -> units in live orders */
  zones: Map<string, number>;
  /** tier id -> units in live orders */
  tierUnits: Map<string, number>;
  /** tiers any order (even a cancelled one) refers to */
  history: Set<string>;
}

export async function claimsOf(c: Q, sessionId: string): Promise<Claims> {
  const [seats] = await c.query<Packet<{ seat_id: string; tier_id: string }>[]>(
    // Reserved seats (order_id 0, comp/) are held like sold ones: their tier is the session's.
    `SELECT sc.seat_id, COALESCE(i.tier_id, ss.tier_id) AS tier_id FROM seat_claims sc
       LEFT JOIN order_items i ON i.order_id = sc.order_id AND i.seat_id = sc.seat_id
       LEFT JOIN session_seats ss ON ss.session_id = sc.session_id AND ss.seat_id = sc.seat_id
      WHERE sc.session_id = ? AND (i.id IS NOT NULL OR sc.order_id = 0)`,
    [sessionId],
  );
  const [zones] = await c.query<Packet<{ zone_id: string; n: Agg }>[]>(
    'SELECT zone_id, COUNT(*) AS n FROM zone_claims WHERE session_id = ? GROUP BY zone_id',
    [sessionId],
  );
  const [units] = await c.query<Packet<{ tier_id: string; live: Agg }>[]>(
    `SELECT i.tier_id, SUM(o.status IN ${LIVE_ORDER}) AS live FROM orders o JOIN order_items i ON i.order_id = o.id
      WHERE o.session_id = ? GROUP BY i.tier_id`,
    [sessionId],
  );
  return {
    seats: new Map(seats.map((s) => [s.seat_id, s.tier_id])),
    zones: new Map(zones.map((z) => [z.zone_id, Number(z.n)])),
    tierUnits: new Map(units.map((u) => [u.tier_id, Number(u.live)])),
    history: new Set(units.map((u) => u.tier_id)),
  };
}

export async function countLiveOrders(c: Q, sessionId: string): Promise<number> {
  const [[r]] = await c.query<Packet<{ n: Agg }>[]>(
    `SELECT COUNT(*) AS n FROM orders WHERE session_id = ? AND status IN ${LIVE_ORDER}`,
    [sessionId],
  );
  return Number(r!.n);
}

/** Rewrites a session's seat-to-tier and zone-to-tier maps. */
export async function writeMaps(
  c: Conn,
  sessionId: string,
  seatTier: Map<string, string>,
  zoneTier: Map<string, { tierId: string; capacity: number }>,
): Promise<void> {
  await c.query('DELETE FROM session_seats WHERE session_id = ?', [sessionId]);
  await c.query('DELETE FROM session_zones WHERE session_id = ?', [sessionId]);
  await insertChunks(
    c,
    'INSERT INTO session_seats (session_id, seat_id, tier_id) VALUES ?',
    [...seatTier].map(([seat, tier]) => [sessionId, seat, tier]),
  );
  const zones = [...zoneTier].map(([zone, z]) => [sessionId, zone, z.tierId, z.capacity]);
  if (zones.length)
    await c.query('INSERT INTO session_zones (session_id, zone_id, tier_id, capacity) VALUES ?', [zones]);
}

/** Changes the given fields of a session (undefined: unchanged), as an organiser's edit does. */
export async function updateSession(
  c: Conn,
  id: string,
  u: {
    startsAt?: Date;
    saleStartsAt?: Date;
    holdMinutes?: number;
    purchaseLimit?: number;
    realName?: boolean;
    queueEnabled?: boolean;
    queueRatePerMin?: number | null;
    rebindFreezeMinutes?: number | null;
  },
): Promise<void> {
  const flag = (v: boolean | undefined) => (v === undefined ? undefined : Number(v));
  await updateById(c, 'show_sessions', id, {
    starts_at: u.startsAt,
    sale_starts_at: u.saleStartsAt,
    hold_minutes: u.holdMinutes,
    purchase_limit: u.purchaseLimit,
    real_name: flag(u.realName),
    queue_enabled: flag(u.queueEnabled),
    queue_rate_per_min: u.queueRatePerMin,
    rebind_freeze_minutes: u.rebindFreezeMinutes,
  });
}

/** Renames may swap two names: parks every tier's name first (names are unique per session). */
export async function parkTierNames(c: Conn, sessionId: string): Promise<void> {
  await c.query("UPDATE price_tiers SET name = CONCAT('~', id) WHERE session_id = ?", [sessionId]);
}

export interface TierWrite {
  name: string;
  priceFen: number;
  color: string | null;
  sortOrder: number;
}

/** Adds a tier; answers its id. */
export async function insertTier(c: Conn, sessionId: string, t: TierWrite): Promise<string> {
  const [res] = await c.query<ResultSetHeader>(
    'INSERT INTO price_tiers (session_id, name, price_fen, color, sort_order) VALUES (?, ?, ?, ?, ?)',
    [sessionId, t.name, t.priceFen, t.color, t.sortOrder],
  );
  return String(res.insertId);
}

export async function updateTier(c: Conn, tierId: string, t: TierWrite): Promise<void> {
  await c.query('UPDATE price_tiers SET name = ?, price_fen = ?, color = ?, sort_order = ? WHERE id = ?', [
    t.name,
    t.priceFen,
    t.color,
    t.sortOrder,
    tierId,
  ]);
}

export async function deleteTiers(c: Conn, tierIds: string[]): Promise<void> {
  if (tierIds.length) await c.query('DELETE FROM price_tiers WHERE id IN (?)', [tierIds]);
}
