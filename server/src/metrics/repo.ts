import type { RowDataPacket } from 'mysql2/promise';
import type { Db } from '../db/pool';
import { ORDER_STATUS } from '../orders/types';
import { OUTBOX_STATUS } from '../outbox/repo';
import { REFUND_STATUS, REFUND_STATUS_NAME } from '../refunds/repo';

/** The one-row answers of the counts below (no row: an empty object). */
// COUNT and SUM come back as strings (BIGINT, DECIMAL), read through Number().
type CountRow = RowDataPacket & { n: string | number };
type SinceRow = RowDataPacket & { since: Date | null };
type LagRow = CountRow & { lag: string | null };
type ReconciliationRow = RowDataPacket & { unmatched: number; finished_at: Date | null };

/** Refunds counted by status. */
interface RefundCountRow extends RowDataPacket {
  status: number;
  n: string | number;
  fen: string | null;
}

/** What the money and message stages hold right now, read from MySQL (the record) for /metrics. */
export interface StageCounts {
  /** Unpaid orders whose hold is still running. */
  holdsActive: number;
  /** Paid orders still waiting for their tickets, and the oldest one's payment time. */
  paidAwaitingTickets: number;
  paidAwaitingTicketsSince: Date | null;
  /** Messages not yet handed to RabbitMQ, and how long the oldest has waited (database clock). */
  outboxPending: number;
  outboxLagS: number;
  /** Refunds by state: count and fen. */
  refunds: { state: string; count: number; fen: number }[];
  /** The oldest refund WeChat has not settled yet (requested or processing). */
  refundOpenSince: Date | null;
  refundCasesOpen: number;
  deadLettersParked: number;
  /** The latest finished reconciliation day: its differences and when it finished. */
  reconcileUnmatched: number;
  reconcileFinishedAt: Date | null;
}

// Each query reads an index range (status-first keys) or a small table, never all orders.
export async function stageCounts(db: Db, now: Date): Promise<StageCounts> {
  const one = async <T extends RowDataPacket>(sql: string, params: unknown[] = []): Promise<Partial<T>> =>
    (await db.query<T[]>(sql, params))[0][0] ?? {};
  const holds = await one<CountRow>('SELECT COUNT(*) AS n FROM orders WHERE status = ? AND expire_at > ?', [
    ORDER_STATUS.PENDING,
    now,
  ]);
  const paid = await one<CountRow & SinceRow>(
    'SELECT COUNT(*) AS n, MIN(paid_at) AS since FROM orders WHERE status = ?',
    [ORDER_STATUS.PAID],
  );
  const outbox = await one<LagRow>(
    `SELECT COUNT(*) AS n, TIMESTAMPDIFF(MICROSECOND, MIN(created_at), NOW(3)) / 1e6 AS lag
       FROM outbox WHERE status = ?`,
    [OUTBOX_STATUS.PENDING],
  );
  const [refunds] = await db.query<RefundCountRow[]>(
    'SELECT status, COUNT(*) AS n, SUM(amount_fen) AS fen FROM refunds GROUP BY status',
  );
  const refundOpen = await one<SinceRow>('SELECT MIN(created_at) AS since FROM refunds WHERE status IN (?)', [
    [REFUND_STATUS.REQUESTED, REFUND_STATUS.PROCESSING],
  ]);
  const cases = await one<CountRow>("SELECT COUNT(*) AS n FROM refund_cases WHERE state = 'open'");
  const parked = await one<CountRow>("SELECT COUNT(*) AS n FROM dead_letters WHERE state = 'parked'");
  const rec = await one<ReconciliationRow>(
    `SELECT unmatched, finished_at FROM reconciliations WHERE status IN ('ok', 'differences')
      ORDER BY bill_date DESC LIMIT 1`,
  );
  return {
    holdsActive: Number(holds.n ?? 0),
    paidAwaitingTickets: Number(paid.n ?? 0),
    paidAwaitingTicketsSince: paid.since ?? null,
    outboxPending: Number(outbox.n ?? 0),
    outboxLagS: Number(outbox.lag ?? 0),
    // Every state, 0 when none: an alert on a state never sees a missing series instead of 0.
    refunds: REFUND_STATUS_NAME.map((state, status) => {
      const r = refunds.find((x) => Number(x.status) === status);
      return { state, count: Number(r?.n ?? 0), fen: Number(r?.fen ?? 0) };
    }),
    refundOpenSince: refundOpen.since ?? null,
    refundCasesOpen: Number(cases.n ?? 0),
    deadLettersParked: Number(parked.n ?? 0),
    reconcileUnmatched: Number(rec.unmatched ?? 0),
    reconcileFinishedAt: rec.finished_at ?? null,
  };
}
