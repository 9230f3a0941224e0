import type { RowDataPacket } from 'mysql2/promise';
import type { ShowCategory } from '@showtix/shared-types';

/*
 * One interface per catalog table, as mysql2 hands its rows to the catalog repos (BIGINT ids as
 * strings, DECIMAL as strings, DATETIME as Date, TINYINT(1) as 0/1). A query reads a Pick of
 * them, plus its computed columns; only the repos see these: services get the domain shapes.
 */

export interface VenueRow extends RowDataPacket {
  id: string;
  name: string;
  city: string;
  address: string;
  /** DECIMAL(9, 6): a string, null when not entered. */
  latitude: string | null;
  longitude: string | null;
  created_at: Date;
}

export interface VenueSeatRow extends RowDataPacket {
  id: string;
  venue_id: string;
  section: string;
  row_label: string;
  seat_number: string;
  x: number;
  y: number;
}

export interface VenueZoneRow extends RowDataPacket {
  id: string;
  venue_id: string;
  name: string;
  capacity: number;
}

export interface ShowDbRow extends RowDataPacket {
  id: string;
  title: string;
  category: ShowCategory;
  venue_id: string;
  description: string | null;
  poster_url: string | null;
  /** JSON text of RefundTier[]. */
  refund_rules: string | null;
  show_purchase_limit: number | null;
  exchange_allowed: number;
  exchange_cutoff_minutes: number;
  created_at: Date;
  updated_at: Date;
}

/** A show_sessions row (for the catalog's repos only; services see SessionRecord). */
export interface SessionRow {
  id: string;
  show_id: string;
  starts_at: Date;
  sale_starts_at: Date;
  status: number;
  purchase_limit: number;
  hold_minutes: number;
  real_name: number;
  queue_enabled: number;
  queue_rate_per_min: number | null;
  /** Read by the admin session view (SELECT *), not by the catalog. */
  rebind_freeze_minutes?: number | null;
  /** A postponed session's first date and its full-refund window (session-changes/). */
  postponed_from?: Date | null;
  full_refund_until?: Date | null;
}

export interface PriceTierRow extends RowDataPacket {
  id: string;
  session_id: string;
  name: string;
  price_fen: number;
  color: string | null;
  sort_order: number;
}

export interface SessionSeatRow extends RowDataPacket {
  session_id: string;
  seat_id: string;
  tier_id: string;
}

export interface SessionZoneRow extends RowDataPacket {
  session_id: string;
  zone_id: string;
  tier_id: string;
  capacity: number;
}

/** COUNT and SUM come back as strings (BIGINT, DECIMAL): read through Number(). */
export type Agg = string | number;

/** The columns K of a table's row, as a query that reads only them gets it. */
export type Cols<T extends RowDataPacket, K extends keyof T> = RowDataPacket & Pick<T, K>;
