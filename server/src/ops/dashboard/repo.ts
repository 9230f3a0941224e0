import type { RowDataPacket } from 'mysql2/promise';
import type { Db } from '../../db/pool';
import { LIVE_ORDER_STATUSES, ORDER_STATUS } from '../../orders/types';
import { SESSION_STATUS } from '../../catalog/types';

/** COUNT and SUM come back as strings (BIGINT, DECIMAL): read through Number(). */
type Agg = string | number;
type CountRow<K extends string> = RowDataPacket & Record<K, string> & { n: Agg };
/** A per-minute count. */
type MinuteRow = RowDataPacket & { m: Agg; n: Agg };

/** A show_sessions row with its show's title (the columns read). */
interface LiveSessionDbRow extends RowDataPacket {
  id: string;
  show_id: string;
  title: string;
  starts_at: Date;
  status: number;
}

/** Units in live orders per tier: pending ones are held, paid or ticketed ones are sold. */
export async function unitsByTier(
  db: Db,
  sessionId: string,
): Promise<Map<string, { held: number; sold: number }>> {
  const [rows] = await db.query<(CountRow<'tier_id'> & { status: number })[]>(
    `SELECT i.tier_id, o.status, COUNT(*) AS n FROM orders o JOIN order_items i ON i.order_id = o.id
      WHERE o.session_id = ? AND o.status IN (?) AND o.channel <> 'comp' GROUP BY i.tier_id, o.status`,
    [sessionId, LIVE_ORDER_STATUSES],
  );
  const out = new Map<string, { held: number; sold: number }>();
  for (const r of rows) {
    const t = out.get(String(r.tier_id)) ?? { held: 0, sold: 0 };
    if (r.status === ORDER_STATUS.PENDING) t.held += Number(r.n);
    else t.sold += Number(r.n);
    out.set(String(r.tier_id), t);
  }
  return out;
}

export async function ordersByStatus(db: Db, sessionId: string): Promise<Map<number, number>> {
  const [rows] = await db.query<(RowDataPacket & { status: number; n: Agg })[]>(
    "SELECT status, COUNT(*) AS n FROM orders WHERE session_id = ? AND channel <> 'comp' GROUP BY status",
    [sessionId],
  );
  return new Map(rows.map((r) => [Number(r.status), Number(r.n)]));
}

/** Counts per minute (keyed by minutes since the epoch) from `since` on. */
export async function perMinute(
  db: Db,
  sessionId: string,
  since: Date,
): Promise<{ orders: Map<number, number>; payments: Map<number, number> }> {
  const [orders] = await db.query<MinuteRow[]>(
    `SELECT FLOOR(UNIX_TIMESTAMP(created_at) / 60) AS m, COUNT(*) AS n FROM orders
      WHERE session_id = ? AND created_at >= ? AND channel <> 'comp' GROUP BY m`,
    [sessionId, since],
  );
  const [payments] = await db.query<MinuteRow[]>(
    `SELECT FLOOR(UNIX_TIMESTAMP(p.success_time) / 60) AS m, COUNT(*) AS n FROM orders o JOIN payments p ON p.order_id = o.id
      WHERE o.session_id = ? AND p.success_time >= ? GROUP BY m`,
    [sessionId, since],
  );
  const toMap = (rows: MinuteRow[]) => new Map(rows.map((r) => [Number(r.m), Number(r.n)]));
  return { orders: toMap(orders), payments: toMap(payments) };
}

/** Units held back from public sale per tier (reserved claims: order_id 0, comp tickets included). */
export async function reservedByTier(db: Db, sessionId: string): Promise<Map<string, number>> {
  const [rows] = await db.query<CountRow<'tier_id'>[]>(
    `SELECT ss.tier_id, COUNT(*) AS n FROM seat_claims sc
       JOIN session_seats ss ON ss.session_id = sc.session_id AND ss.seat_id = sc.seat_id
      WHERE sc.session_id = ? AND sc.order_id = 0 GROUP BY ss.tier_id
     UNION ALL
     SELECT sz.tier_id, COUNT(*) AS n FROM zone_claims zc
       JOIN session_zones sz ON sz.session_id = zc.session_id AND sz.zone_id = zc.zone_id
      WHERE zc.session_id = ? AND zc.order_id = 0 GROUP BY sz.tier_id`,
    [sessionId, sessionId],
  );
  const out = new Map<string, number>();
  for (const r of rows) out.set(String(r.tier_id), (out.get(String(r.tier_id)) ?? 0) + Number(r.n));
  return out;
}

/** Live complimentary orders of a session and their tickets (counted apart from sales). */
export async function compCounts(db: Db, sessionId: string): Promise<{ orders: number; tickets: number }> {
  const [[r]] = await db.query<(RowDataPacket & { orders: Agg; tickets: Agg })[]>(
    `SELECT COUNT(*) AS orders, COALESCE(SUM(quantity), 0) AS tickets FROM orders
      WHERE session_id = ? AND channel = 'comp' AND status = ?`,
    [sessionId, ORDER_STATUS.TICKETED],
  );
  return { orders: Number(r!.orders), tickets: Number(r!.tickets) };
}

export async function money(db: Db, sessionId: string): Promise<{ paidFen: number; refundedFen: number }> {
  const [[r]] = await db.query<(RowDataPacket & { paid: Agg; refunded: Agg })[]>(
    `SELECT COALESCE(SUM(p.amount_fen), 0) AS paid, COALESCE(SUM(p.refunded_fen), 0) AS refunded
       FROM orders o JOIN payments p ON p.order_id = o.id WHERE o.session_id = ?`,
    [sessionId],
  );
  return { paidFen: Number(r!.paid), refundedFen: Number(r!.refunded) };
}

/** Held and sold seats from MySQL, for a session not (yet) loaded in Redis. */
export async function claimedSeatStates(
  db: Db,
  sessionId: string,
): Promise<{ held: string[]; sold: string[] }> {
  const [rows] = await db.query<(RowDataPacket & { seat_id: string; status: number })[]>(
    'SELECT sc.seat_id, o.status FROM seat_claims sc JOIN orders o ON o.id = sc.order_id WHERE sc.session_id = ?',
    [sessionId],
  );
  return {
    held: rows.filter((r) => r.status === ORDER_STATUS.PENDING).map((r) => String(r.seat_id)),
    sold: rows.filter((r) => r.status !== ORDER_STATUS.PENDING).map((r) => String(r.seat_id)),
  };
}

export interface LiveSession {
  id: string;
  showId: string;
  showTitle: string;
  startsAt: Date;
  status: number;
}

export async function liveSessions(db: Db): Promise<LiveSession[]> {
  const [rows] = await db.query<LiveSessionDbRow[]>(
    `SELECT ss.id, ss.show_id, s.title, ss.starts_at, ss.status FROM show_sessions ss JOIN shows s ON s.id = ss.show_id
      WHERE ss.status IN (?) ORDER BY ss.status = ?, ss.starts_at LIMIT 200`,
    [[SESSION_STATUS.PRESALE, SESSION_STATUS.ON_SALE, SESSION_STATUS.SOLD_OUT], SESSION_STATUS.PRESALE],
  );
  return rows.map((r) => ({
    id: r.id,
    showId: r.show_id,
    showTitle: r.title,
    startsAt: r.starts_at,
    status: r.status,
  }));
}
