import type { VenueDetail, VenueSummary } from '@showtix/shared-types';
import type { Conn, Db } from '../../db/pool';
import { updateById } from '../../db/update-by-id';
import type { Agg, Cols, VenueRow, VenueSeatRow, VenueZoneRow } from '../rows';

/** A venue with its counts (SUMMARY). */
type SummaryRow = VenueRow & {
  seat_count: Agg;
  zone_count: Agg;
  sections: string | null;
  session_count: Agg;
};

const SUMMARY = `SELECT v.id, v.name, v.city, v.address, v.latitude, v.longitude, v.created_at,
    (SELECT COUNT(*) FROM venue_seats s WHERE s.venue_id = v.id) AS seat_count,
    (SELECT COUNT(*) FROM venue_zones z WHERE z.venue_id = v.id) AS zone_count,
    (SELECT GROUP_CONCAT(DISTINCT s.section ORDER BY s.section SEPARATOR '\\n') FROM venue_seats s WHERE s.venue_id = v.id) AS sections,
    (SELECT COUNT(*) FROM show_sessions ss JOIN shows sh ON sh.id = ss.show_id WHERE sh.venue_id = v.id) AS session_count
  FROM venues v`;

/** DECIMAL comes back as a string (mysql2): a number, or null when not entered. */
export function coordinate(v: unknown): number | null {
  return v === null || v === undefined ? null : Number(v);
}

function summaryView(r: SummaryRow): VenueSummary {
  return {
    id: r.id,
    name: r.name,
    city: r.city,
    address: r.address,
    latitude: coordinate(r.latitude),
    longitude: coordinate(r.longitude),
    seatCount: Number(r.seat_count),
    zoneCount: Number(r.zone_count),
    sections: r.sections ? String(r.sections).split('\n') : [],
    sessionCount: Number(r.session_count),
    createdAt: r.created_at.toISOString(),
  };
}

export async function listVenues(db: Db): Promise<VenueSummary[]> {
  const [rows] = await db.query<SummaryRow[]>(`${SUMMARY} ORDER BY v.id DESC`);
  return rows.map(summaryView);
}

export async function venueSummary(db: Db | Conn, id: string): Promise<VenueSummary | undefined> {
  const [rows] = await db.query<SummaryRow[]>(`${SUMMARY} WHERE v.id = ?`, [id]);
  return rows[0] ? summaryView(rows[0]) : undefined;
}

export async function venueDetail(db: Db, id: string): Promise<VenueDetail | undefined> {
  const summary = await venueSummary(db, id);
  if (!summary) return undefined;
  const [seats] = await db.query<VenueSeatRow[]>(
    'SELECT id, section, row_label, seat_number, x, y FROM venue_seats WHERE venue_id = ? ORDER BY id',
    [id],
  );
  const [zones] = await db.query<VenueZoneRow[]>(
    'SELECT id, name, capacity FROM venue_zones WHERE venue_id = ? ORDER BY id',
    [id],
  );
  return {
    ...summary,
    seats: seats.map((s) => ({
      id: s.id,
      section: s.section,
      row: s.row_label,
      number: s.seat_number,
      x: s.x,
      y: s.y,
    })),
    zones: zones.map((z) => ({ id: z.id, name: z.name, capacity: z.capacity })),
  };
}

/** The fields of a venue an edit may change; undefined leaves one as it is, null clears it. */
export interface VenueMeta {
  name?: string;
  city?: string;
  address?: string;
  latitude?: number | null;
  longitude?: number | null;
}

export async function updateVenueMeta(c: Conn, id: string, v: VenueMeta): Promise<void> {
  await updateById(c, 'venues', id, {
    name: v.name,
    city: v.city,
    address: v.address,
    latitude: v.latitude,
    longitude: v.longitude,
  });
}

/** Deletes a venue's seats and zones; only for a venue no session uses (the caller checks). */
export async function clearLayout(c: Conn, id: string): Promise<void> {
  await c.query('DELETE FROM venue_seats WHERE venue_id = ?', [id]);
  await c.query('DELETE FROM venue_zones WHERE venue_id = ?', [id]);
}

export async function lockVenue(c: Conn, id: string): Promise<boolean> {
  const [rows] = await c.query<Cols<VenueRow, 'id'>[]>('SELECT id FROM venues WHERE id = ? FOR UPDATE', [id]);
  return rows.length === 1;
}
