import type { RowDataPacket } from 'mysql2/promise';
import type { Db } from '../db/pool';
import { EXCHANGE_STATUS, REFUND_STATUS } from '../lifecycle/statuses';

/** COUNT and SUM come back as strings (BIGINT, DECIMAL): numbers once read through Number(). */
type Agg = string | number;

/** Orders, tickets and gross of a group of sales. */
interface CountsRow extends RowDataPacket {
  orders: Agg;
  tickets: Agg;
  gross: Agg | null;
}

/** A session with its show (show_sessions joined to shows), heading a per-session row. */
interface SessionHeadRow extends RowDataPacket {
  session_id: string;
  show_id: string;
  title: string;
  starts_at: Date;
}

/** What a report covers: sessions (by id or show) and a UTC time range [start, end). */
export interface ReportScope {
  showId?: string;
  sessionId?: string;
  start?: Date;
  end?: Date;
}

/** Payments whose money went to their order (not late ones refunded, duplicates, other currencies). */
const APPLIED = ['applied', 'late_applied'];

/** Beijing calendar day of a UTC DATETIME (China keeps no daylight saving: a fixed +8 hours). */
const beijingDay = (col: string) => `DATE_FORMAT(${col} + INTERVAL 8 HOUR, '%Y-%m-%d')`;

/** WHERE conditions on the order's session (alias o, ss) and on one time column. */
function where(scope: ReportScope, timeCol: string): { sql: string; args: unknown[] } {
  const conds: [string, unknown][] = [
    ['o.session_id = ?', scope.sessionId],
    ['ss.show_id = ?', scope.showId],
    [`${timeCol} >= ?`, scope.start],
    [`${timeCol} < ?`, scope.end],
  ];
  const used = conds.filter(([, v]) => v !== undefined);
  return {
    sql: used.map(([c]) => `AND ${c}`).join(' '),
    args: used.map(([, v]) => v),
  };
}

const PAID_FROM = `FROM payments p JOIN orders o ON o.id = p.order_id JOIN show_sessions ss ON ss.id = o.session_id`;
const REFUND_FROM = `FROM refunds r JOIN orders o ON o.id = r.order_id JOIN show_sessions ss ON ss.id = o.session_id`;

const counts = (r: CountsRow) => ({
  orders: Number(r.orders),
  tickets: Number(r.tickets),
  grossFen: Number(r.gross),
});

/** Paid orders per Beijing day of their payment. */
export async function salesByDay(db: Db, scope: ReportScope) {
  const w = where(scope, 'p.success_time');
  const [rows] = await db.query<(CountsRow & { d: string })[]>(
    `SELECT ${beijingDay('p.success_time')} AS d, COUNT(*) AS orders, SUM(o.quantity) AS tickets,
            SUM(p.amount_fen) AS gross
       ${PAID_FROM} WHERE p.outcome IN (?) ${w.sql} GROUP BY d ORDER BY d`,
    [APPLIED, ...w.args],
  );
  return rows.map((r) => ({ date: String(r.d), ...counts(r) }));
}

/**
 * Succeeded refunds of sales (payments that went to their order) per session and Beijing day they
 * were asked for (WeChat dates a refund by acceptance, whatever day the payment was).
 */
export async function salesRefunds(db: Db, scope: ReportScope) {
  const w = where(scope, 'r.created_at');
  const [rows] = await db.query<(RowDataPacket & { session_id: string; d: string; fen: Agg })[]>(
    `SELECT o.session_id, ${beijingDay('r.created_at')} AS d, SUM(r.amount_fen) AS fen
       ${REFUND_FROM} JOIN payments p ON p.id = r.payment_id
      WHERE r.status = ? AND p.outcome IN (?) ${w.sql} GROUP BY o.session_id, d`,
    [REFUND_STATUS.SUCCESS, APPLIED, ...w.args],
  );
  return rows.map((r) => ({ sessionId: String(r.session_id), date: String(r.d), fen: Number(r.fen) }));
}

/**
 * When an order was sold: its applied payment, or, for an exchange order that owed nothing, the
 * moment its exchange was done. An exchange order whose exchange failed sold nothing (it is
 * refunded in full).
 */
const SOLD_AT = `(SELECT p.order_id, MIN(p.success_time) AS sold_at FROM payments p
     WHERE p.outcome IN (?) AND NOT EXISTS (SELECT 1 FROM exchanges e
       WHERE e.exchange_order_id = p.order_id AND e.status <> ${EXCHANGE_STATUS.DONE})
     GROUP BY p.order_id
   UNION ALL
   SELECT e.exchange_order_id, e.finished_at FROM exchanges e
    WHERE e.status = ${EXCHANGE_STATUS.DONE} AND NOT EXISTS (SELECT 1 FROM payments p
      WHERE p.order_id = e.exchange_order_id AND p.outcome IN (?)))`;

/**
 * Tickets and their face value per tier, for orders sold within the scope. A ticket given up by
 * a done exchange (改签) leaves its tier, and the exchange order's ticket counts in its own: each
 * seat is counted once, in the tier the fan holds (before, both were counted, and the new one
 * only when a difference was paid).
 */
export async function salesByTier(db: Db, scope: ReportScope) {
  const w = where(scope, 'sold.sold_at');
  const [rows] = await db.query<
    (CountsRow & { session_id: string; tier_id: string; name: string; price_fen: number })[]
  >(
    `SELECT o.session_id, i.tier_id, t.name, t.price_fen, COUNT(DISTINCT o.id) AS orders,
            COUNT(*) AS tickets, SUM(i.price_fen) AS gross
       FROM ${SOLD_AT} sold JOIN orders o ON o.id = sold.order_id
       JOIN show_sessions ss ON ss.id = o.session_id
       JOIN order_items i ON i.order_id = o.id JOIN price_tiers t ON t.id = i.tier_id
      WHERE NOT EXISTS (SELECT 1 FROM exchange_items x JOIN exchanges e ON e.id = x.exchange_id
                         WHERE x.old_item_id = i.id AND e.status = ${EXCHANGE_STATUS.DONE}) ${w.sql}
      GROUP BY o.session_id, i.tier_id, t.name, t.price_fen, t.sort_order
      ORDER BY o.session_id, t.sort_order, i.tier_id`,
    [APPLIED, APPLIED, ...w.args],
  );
  return rows.map((r) => ({
    sessionId: String(r.session_id),
    tierId: String(r.tier_id),
    tierName: String(r.name),
    priceFen: Number(r.price_fen),
    ...counts(r),
  }));
}

/**
 * Paid orders per session, with the show they belong to, and the refunds of its sales asked for
 * within the scope: a session with refunds and no sale in the range is listed too.
 */
export async function salesBySession(db: Db, scope: ReportScope) {
  const pw = where(scope, 'p.success_time');
  const rw = where(scope, 'r.created_at');
  const [rows] = await db.query<(SessionHeadRow & CountsRow & { refunded: Agg })[]>(
    `SELECT m.session_id, ss.show_id, s.title, ss.starts_at, SUM(m.orders) AS orders,
            SUM(m.tickets) AS tickets, SUM(m.gross) AS gross, SUM(m.refunded) AS refunded
       FROM (SELECT o.session_id, COUNT(*) AS orders, SUM(o.quantity) AS tickets, SUM(p.amount_fen) AS gross,
                    0 AS refunded
               ${PAID_FROM} WHERE p.outcome IN (?) ${pw.sql} GROUP BY o.session_id
             UNION ALL
             SELECT o.session_id, 0, 0, 0, SUM(r.amount_fen)
               ${REFUND_FROM} JOIN payments p ON p.id = r.payment_id
              WHERE r.status = ? AND p.outcome IN (?) ${rw.sql} GROUP BY o.session_id) m
       JOIN show_sessions ss ON ss.id = m.session_id JOIN shows s ON s.id = ss.show_id
      GROUP BY m.session_id, ss.show_id, s.title, ss.starts_at ORDER BY ss.starts_at, m.session_id`,
    [APPLIED, ...pw.args, REFUND_STATUS.SUCCESS, APPLIED, ...rw.args],
  );
  return rows.map((r) => ({
    sessionId: String(r.session_id),
    showId: String(r.show_id),
    showTitle: String(r.title),
    startsAt: r.starts_at.toISOString(),
    ...counts(r),
    refundedFen: Number(r.refunded),
  }));
}

/**
 * Complimentary tickets issued within the scope (by issue time) and not voided: counted apart
 * from sales, never in gross or fees (no payment exists for them).
 */
export async function compIssued(db: Db, scope: ReportScope): Promise<{ orders: number; tickets: number }> {
  const w = where(scope, 'co.issued_at');
  const [[r]] = await db.query<(RowDataPacket & { orders: Agg; tickets: Agg })[]>(
    `SELECT COUNT(*) AS orders, COALESCE(SUM(o.quantity), 0) AS tickets
       FROM comp_orders co JOIN orders o ON o.id = co.order_id JOIN show_sessions ss ON ss.id = o.session_id
      WHERE co.voided_at IS NULL ${w.sql}`,
    w.args,
  );
  return { orders: Number(r!.orders), tickets: Number(r!.tickets) };
}

export interface SessionMoney {
  sessionId: string;
  showId: string;
  showTitle: string;
  startsAt: Date;
  payments: number;
  grossFen: number;
  payFeeFen: number;
  refundedFen: number;
  refundFeeFen: number;
}

/**
 * Money per session as WeChat Pay's bill counts it: every payment it took (whatever became of it)
 * by success time, every succeeded refund by the time it was asked for, each with its fee rounded
 * to the fen per line (ROUND on exact decimals: half away from zero, as the bill rounds).
 */
export async function moneyBySession(db: Db, scope: ReportScope, feeBp: number): Promise<SessionMoney[]> {
  const pw = where(scope, 'p.success_time');
  const rw = where(scope, 'r.created_at');
  const [rows] = await db.query<
    (SessionHeadRow & { payments: Agg; gross: Agg; pay_fee: Agg; refunded: Agg; refund_fee: Agg })[]
  >(
    `SELECT m.session_id, ss.show_id, s.title, ss.starts_at, SUM(m.payments) AS payments,
            SUM(m.gross) AS gross, SUM(m.pay_fee) AS pay_fee, SUM(m.refunded) AS refunded,
            SUM(m.refund_fee) AS refund_fee
       FROM (SELECT o.session_id, COUNT(*) AS payments, SUM(p.amount_fen) AS gross,
                    SUM(ROUND(p.amount_fen * ? / 10000)) AS pay_fee, 0 AS refunded, 0 AS refund_fee
               ${PAID_FROM} WHERE p.success_time IS NOT NULL ${pw.sql} GROUP BY o.session_id
             UNION ALL
             SELECT o.session_id, 0, 0, 0, SUM(r.amount_fen), SUM(ROUND(r.amount_fen * ? / 10000))
               ${REFUND_FROM} WHERE r.status = ? ${rw.sql} GROUP BY o.session_id) m
       JOIN show_sessions ss ON ss.id = m.session_id JOIN shows s ON s.id = ss.show_id
      GROUP BY m.session_id, ss.show_id, s.title, ss.starts_at ORDER BY ss.starts_at, m.session_id`,
    [feeBp, ...pw.args, feeBp, REFUND_STATUS.SUCCESS, ...rw.args],
  );
  return rows.map((r) => ({
    sessionId: String(r.session_id),
    showId: String(r.show_id),
    showTitle: String(r.title),
    startsAt: r.starts_at,
    payments: Number(r.payments),
    grossFen: Number(r.gross),
    payFeeFen: Number(r.pay_fee),
    refundedFen: Number(r.refunded),
    refundFeeFen: Number(r.refund_fee),
  }));
}

/** Admissions of a session per gate and device. */
export async function checkinsByGate(db: Db, sessionId: string) {
  const [rows] = await db.query<(RowDataPacket & { gate: string; device: string; n: Agg })[]>(
    `SELECT gate, COALESCE(device, '') AS device, COUNT(*) AS n FROM checkins WHERE session_id = ?
      GROUP BY gate, COALESCE(device, '') ORDER BY gate, device`,
    [sessionId],
  );
  return rows.map((r) => ({ gate: String(r.gate), device: String(r.device), count: Number(r.n) }));
}

/** Admissions of a session per 15-minute bucket, keyed by the bucket's number since the epoch. */
export async function checkinsByQuarter(db: Db, sessionId: string): Promise<Map<number, number>> {
  const [rows] = await db.query<(RowDataPacket & { q: Agg; n: Agg })[]>(
    `SELECT FLOOR(UNIX_TIMESTAMP(scanned_at) / 900) AS q, COUNT(*) AS n FROM checkins
      WHERE session_id = ? GROUP BY q`,
    [sessionId],
  );
  return new Map(rows.map((r) => [Number(r.q), Number(r.n)]));
}

export async function sessionExists(db: Db, sessionId: string): Promise<boolean> {
  const [rows] = await db.query<RowDataPacket[]>('SELECT 1 FROM show_sessions WHERE id = ?', [sessionId]);
  return rows.length > 0;
}
