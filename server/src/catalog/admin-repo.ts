import type { ResultSetHeader } from 'mysql2/promise';
import type { Conn, Db } from '../db/pool';
import { inTransaction } from '../db/pool';
import type { RefundTier, ShowCategory } from '@showtix/shared-types';
import type { SeatSpec } from './layout';
import type { Cols, ShowDbRow, VenueSeatRow, VenueZoneRow } from './rows';

export interface VenueInput {
  name: string;
  city?: string;
  address?: string;
  /** GCJ-02, both or neither (the schema checks). */
  latitude?: number | null;
  longitude?: number | null;
  seats: SeatSpec[];
  zones?: { name: string; capacity: number }[];
}

/** Rows in chunks: one statement for a 10,000-seat venue would pass max_allowed_packet. */
export async function insertChunks(conn: Conn, sql: string, rows: unknown[][], size = 2000): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await conn.query(sql, [rows.slice(i, i + size)]);
}

/** A venue's seats and zones: a new venue's, or the new layout of one no session sells. */
export async function insertLayout(
  c: Conn,
  venueId: string,
  seats: SeatSpec[],
  zones: { name: string; capacity: number }[] = [],
): Promise<void> {
  await insertChunks(
    c,
    'INSERT INTO venue_seats (venue_id, section, row_label, seat_number, x, y) VALUES ?',
    seats.map((s) => [venueId, s.section, s.row, s.number, Math.round(s.x), Math.round(s.y)]),
  );
  if (zones.length)
    await c.query('INSERT INTO venue_zones (venue_id, name, capacity) VALUES ?', [
      zones.map((z) => [venueId, z.name, z.capacity]),
    ]);
}

/** Creates a venue with its seats and zones in the caller's transaction; returns the venue id. */
export async function writeVenue(c: Conn, v: VenueInput): Promise<string> {
  const [res] = await c.query<ResultSetHeader>(
    'INSERT INTO venues (name, city, address, latitude, longitude) VALUES (?, ?, ?, ?, ?)',
    [v.name, v.city ?? '', v.address ?? '', v.latitude ?? null, v.longitude ?? null],
  );
  const venueId = String(res.insertId);
  await insertLayout(c, venueId, v.seats, v.zones);
  return venueId;
}

/** writeVenue in a transaction of its own. */
export function insertVenue(db: Db, v: VenueInput): Promise<string> {
  return inTransaction(db, (c) => writeVenue(c, v));
}

export interface ShowInput {
  title: string;
  /** One of SHOW_CATEGORIES; the column's default 'other' when left out. */
  category?: ShowCategory;
  venueId: string;
  description?: string;
  posterUrl?: string | null;
  refundRules?: RefundTier[];
  /** Per-user limit across all sessions of the show. */
  showPurchaseLimit?: number | null;
}

export async function insertShow(db: Db | Conn, s: ShowInput): Promise<string> {
  const [res] = await db.query<ResultSetHeader>(
    `INSERT INTO shows (title, category, venue_id, description, poster_url, refund_rules, show_purchase_limit)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [
      s.title,
      s.category ?? 'other',
      s.venueId,
      s.description ?? '',
      s.posterUrl ?? null,
      JSON.stringify(s.refundRules ?? []),
      s.showPurchaseLimit ?? null,
    ],
  );
  return String(res.insertId);
}

export interface TierInput {
  name: string;
  priceFen: number;
  color?: string;
  /** Seats of this tier; a tier with neither seatIds nor zoneName takes every seat no tier names. */
  seatIds?: string[];
  /** Ties the tier to a general-admission zone of the venue. */
  zoneName?: string;
}

export interface SessionInput {
  showId: string;
  startsAt: Date;
  saleStartsAt: Date;
  holdMinutes?: number;
  purchaseLimit?: number;
  realName?: boolean;
  queueEnabled?: boolean;
  queueRatePerMin?: number | null;
  tiers: TierInput[];
}

/** Creates a session with its tiers, seat-to-tier map and zones in the caller's transaction. */
export async function writeSession(c: Conn, s: SessionInput): Promise<string> {
  const [res] = await c.query<ResultSetHeader>(
    `INSERT INTO show_sessions (show_id, starts_at, sale_starts_at, hold_minutes, purchase_limit, real_name,
       queue_enabled, queue_rate_per_min) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      s.showId,
      s.startsAt,
      s.saleStartsAt,
      s.holdMinutes ?? 15,
      s.purchaseLimit ?? 4,
      s.realName ? 1 : 0,
      s.queueEnabled ? 1 : 0,
      s.queueRatePerMin ?? null,
    ],
  );
  const sessionId = String(res.insertId);
  const [[venue]] = await c.query<Cols<ShowDbRow, 'venue_id'>[]>('SELECT venue_id FROM shows WHERE id = ?', [
    s.showId,
  ]);
  const venueId = String(venue!.venue_id);
  const [seats] = await c.query<Cols<VenueSeatRow, 'id'>[]>('SELECT id FROM venue_seats WHERE venue_id = ?', [
    venueId,
  ]);
  const [zones] = await c.query<VenueZoneRow[]>(
    'SELECT id, name, capacity FROM venue_zones WHERE venue_id = ?',
    [venueId],
  );
  const seatTier = new Map<string, string>();
  let fallback: string | undefined;
  for (const [i, t] of s.tiers.entries()) {
    const [tr] = await c.query<ResultSetHeader>(
      'INSERT INTO price_tiers (session_id, name, price_fen, color, sort_order) VALUES (?, ?, ?, ?, ?)',
      [sessionId, t.name, t.priceFen, t.color ?? null, i],
    );
    const tierId = String(tr.insertId);
    if (t.zoneName) {
      const zone = zones.find((z) => z.name === t.zoneName);
      if (!zone) throw new Error(`zone "${t.zoneName}" is not in the venue`);
      await c.query(
        'INSERT INTO session_zones (session_id, zone_id, tier_id, capacity) VALUES (?, ?, ?, ?)',
        [sessionId, zone.id, tierId, zone.capacity],
      );
    } else if (t.seatIds) {
      for (const id of t.seatIds) seatTier.set(id, tierId);
    } else {
      fallback = tierId;
    }
  }
  const rows = seats
    .map((seat) => [sessionId, seat.id, seatTier.get(seat.id) ?? fallback])
    .filter((r) => r[2] !== undefined);
  await insertChunks(c, 'INSERT INTO session_seats (session_id, seat_id, tier_id) VALUES ?', rows);
  return sessionId;
}

/** writeSession in a transaction of its own; returns the session id. */
export function insertSession(db: Db, s: SessionInput): Promise<string> {
  return inTransaction(db, (c) => writeSession(c, s));
}

export async function seatIdsOfVenue(
  db: Db,
  venueId: string,
): Promise<{ id: string; section: string; row: string }[]> {
  const [rows] = await db.query<(Cols<VenueSeatRow, 'id' | 'section'> & { row: string })[]>(
    'SELECT id, section, row_label AS `row` FROM venue_seats WHERE venue_id = ? ORDER BY id',
    [venueId],
  );
  return rows.map((r) => ({ id: r.id, section: r.section, row: r.row }));
}
