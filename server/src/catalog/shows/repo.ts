import type { RowDataPacket } from 'mysql2/promise';
import type { AdminShowSummary, RefundTier, ShowCategory } from '@showtix/shared-types';
import type { Conn, Db } from '../../db/pool';
import { showBasics } from '../repo';
import { SESSION_STATUS_NAME } from '../types';
import type { Agg, Cols, ShowDbRow, VenueRow } from '../rows';
import { updateById } from '../../db/update-by-id';

/** A show with its venue's name and its sessions' counts (SUMMARY). */
type SummaryRow = Cols<
  ShowDbRow,
  | 'id'
  | 'title'
  | 'category'
  | 'venue_id'
  | 'poster_url'
  | 'description'
  | 'refund_rules'
  | 'show_purchase_limit'
  | 'exchange_allowed'
  | 'exchange_cutoff_minutes'
  | 'created_at'
> & { venue_name: string; session_count: Agg; first_starts_at: Date | null; statuses: string | null };

const SUMMARY = `SELECT s.id, s.title, s.category, s.venue_id, v.name AS venue_name, s.poster_url, s.description, s.refund_rules, s.show_purchase_limit, s.exchange_allowed, s.exchange_cutoff_minutes, s.created_at,
    (SELECT COUNT(*) FROM show_sessions ss WHERE ss.show_id = s.id) AS session_count,
    (SELECT MIN(ss.starts_at) FROM show_sessions ss WHERE ss.show_id = s.id) AS first_starts_at,
    (SELECT GROUP_CONCAT(DISTINCT ss.status) FROM show_sessions ss WHERE ss.show_id = s.id) AS statuses
  FROM shows s JOIN venues v ON v.id = s.venue_id`;

export interface ShowFull extends AdminShowSummary {
  description: string;
  refundRules: RefundTier[];
  showPurchaseLimit: number | null;
  exchangeRules: { allowed: boolean; cutoffMinutes: number };
}

function view(r: SummaryRow): ShowFull {
  return {
    ...showBasics(r),
    venueId: r.venue_id,
    venueName: r.venue_name,
    sessionCount: Number(r.session_count),
    firstStartsAt: r.first_starts_at ? r.first_starts_at.toISOString() : null,
    statuses: r.statuses
      ? String(r.statuses)
          .split(',')
          .map((x) => SESSION_STATUS_NAME[Number(x)]!)
      : [],
    createdAt: r.created_at.toISOString(),
    showPurchaseLimit: r.show_purchase_limit ?? null,
  };
}

export async function listShows(db: Db): Promise<AdminShowSummary[]> {
  const [rows] = await db.query<SummaryRow[]>(`${SUMMARY} ORDER BY s.id DESC`);
  return rows.map((r) => {
    const {
      description: _d,
      refundRules: _r,
      showPurchaseLimit: _l,
      exchangeRules: _x,
      ...summary
    } = view(r);
    return summary;
  });
}

export async function findShow(db: Db | Conn, id: string): Promise<ShowFull | undefined> {
  const [rows] = await db.query<SummaryRow[]>(`${SUMMARY} WHERE s.id = ?`, [id]);
  return rows[0] ? view(rows[0]) : undefined;
}

export async function lockShow(c: Conn, id: string): Promise<boolean> {
  const [rows] = await c.query<Cols<ShowDbRow, 'id'>[]>('SELECT id FROM shows WHERE id = ? FOR UPDATE', [id]);
  return rows.length === 1;
}

export async function venueExists(db: Db | Conn, id: string): Promise<boolean> {
  const [rows] = await db.query<Cols<VenueRow, 'id'>[]>('SELECT id FROM venues WHERE id = ?', [id]);
  return rows.length === 1;
}

export async function updateShow(
  c: Conn,
  id: string,
  u: {
    title?: string;
    category?: ShowCategory;
    venueId?: string;
    description?: string;
    posterUrl?: string | null;
    refundRules?: RefundTier[];
    showPurchaseLimit?: number | null;
    exchangeRules?: { allowed: boolean; cutoffMinutes: number };
  },
): Promise<void> {
  await updateById(c, 'shows', id, {
    title: u.title,
    category: u.category,
    venue_id: u.venueId,
    description: u.description,
    poster_url: u.posterUrl,
    refund_rules: u.refundRules === undefined ? undefined : JSON.stringify(u.refundRules),
    show_purchase_limit: u.showPurchaseLimit,
    exchange_allowed: u.exchangeRules === undefined ? undefined : u.exchangeRules.allowed ? 1 : 0,
    exchange_cutoff_minutes: u.exchangeRules?.cutoffMinutes,
  });
}

/** One stored poster (posters table). */
interface PosterRow extends RowDataPacket {
  content_type: string;
  body: Buffer;
}

/** A poster is named by its content hash: the same picture twice stores one row. */
export async function insertPoster(
  db: Db,
  p: { name: string; contentType: string; body: Buffer },
): Promise<void> {
  await db.query('INSERT IGNORE INTO posters (name, content_type, bytes, body) VALUES (?, ?, ?, ?)', [
    p.name,
    p.contentType,
    p.body.length,
    p.body,
  ]);
}

export async function findPoster(
  db: Db,
  name: string,
): Promise<{ contentType: string; body: Buffer } | undefined> {
  const [rows] = await db.query<PosterRow[]>('SELECT content_type, body FROM posters WHERE name = ?', [name]);
  return rows[0] ? { contentType: String(rows[0].content_type), body: rows[0].body } : undefined;
}
