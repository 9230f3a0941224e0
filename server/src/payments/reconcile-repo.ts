import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { Db } from '../db/pool';
import { REFUND_STATUS } from '../refunds/repo';

/**
 * The daily reconciliation's reads and writes (payments/reconcile.ts): table reconciliations,
 * one row per Beijing bill day, and the payments and refunds a bill is compared with.
 */

type Row = RowDataPacket;

/** A kept reconciliation result, as the admin views list it. */
export interface ReconciliationRow {
  billDate: string;
  status: 'running' | 'ok' | 'differences';
  wechat_payments: number | null;
  our_payments: number | null;
  wechat_refunds: number | null;
  our_refunds: number | null;
  recovered: number | null;
  unmatched: number | null;
  details: unknown;
  started_at: Date;
  finished_at: Date | null;
}

/** A finished day's counts (unmatched: how many differences; details: the first of them). */
export interface ReconciliationResult {
  status: 'ok' | 'differences';
  wechatPayments: number;
  ourPayments: number;
  wechatRefunds: number;
  ourRefunds: number;
  recovered: number;
  unmatched: number;
  details: string;
  finishedAt: Date;
}

/** When the first payment succeeded (undefined: none yet). */
export async function firstPaymentTime(db: Db): Promise<Date | undefined> {
  const [[first]] = await db.query<Row[]>('SELECT MIN(success_time) AS t FROM payments');
  return (first?.t as Date | null) ?? undefined;
}

/** Days in [from, last] that have a result, or a run that is not stale yet. */
export async function daysDoneOrRunning(
  db: Db,
  from: string,
  last: string,
  staleBefore: Date,
): Promise<Set<string>> {
  const [done] = await db.query<Row[]>(
    `SELECT DATE_FORMAT(bill_date, '%Y-%m-%d') AS d FROM reconciliations
        WHERE bill_date BETWEEN ? AND ? AND (status <> 'running' OR started_at >= ?)`,
    [from, last, staleBefore],
  );
  return new Set(done.map((r) => String(r.d)));
}

/** The kept results, newest day first. */
export async function reconciliationResults(db: Db, limit: number): Promise<ReconciliationRow[]> {
  const [rows] = await db.query<Row[]>(
    `SELECT DATE_FORMAT(bill_date, '%Y-%m-%d') AS billDate, status, wechat_payments, our_payments,
              wechat_refunds, our_refunds, recovered, unmatched, details, started_at, finished_at
         FROM reconciliations ORDER BY bill_date DESC LIMIT ?`,
    [limit],
  );
  return rows as ReconciliationRow[];
}

export async function finishDay(db: Db, billDate: string, r: ReconciliationResult): Promise<void> {
  await db.query(
    `UPDATE reconciliations SET status = ?, wechat_payments = ?, our_payments = ?, wechat_refunds = ?,
           our_refunds = ?, recovered = ?, unmatched = ?, details = ?, finished_at = ? WHERE bill_date = ?`,
    [
      r.status,
      r.wechatPayments,
      r.ourPayments,
      r.wechatRefunds,
      r.ourRefunds,
      r.recovered,
      r.unmatched,
      r.details,
      r.finishedAt,
      billDate,
    ],
  );
}

/** Forgets a day's run (it failed): a later run tries the day again. */
export async function dropDay(db: Db, billDate: string): Promise<void> {
  await db.query('DELETE FROM reconciliations WHERE bill_date = ?', [billDate]);
}

/** Claims a day: a new row, or a 'running' one started before staleBefore (its instance died). */
export async function claimDay(db: Db, billDate: string, now: Date, staleBefore: Date): Promise<boolean> {
  const [ins] = await db.query<ResultSetHeader>(
    "INSERT IGNORE INTO reconciliations (bill_date, status, started_at) VALUES (?, 'running', ?)",
    [billDate, now],
  );
  if (ins.affectedRows === 1) return true;
  const [upd] = await db.query<ResultSetHeader>(
    "UPDATE reconciliations SET started_at = ? WHERE bill_date = ? AND status = 'running' AND started_at < ?",
    [now, billDate, staleBefore],
  );
  return upd.affectedRows === 1;
}

/** The transaction ids of our payments that succeeded in [start, end). */
export async function transactionsBetween(db: Db, start: Date, end: Date): Promise<string[]> {
  const [ofDay] = await db.query<Row[]>(
    'SELECT transaction_id FROM payments WHERE success_time >= ? AND success_time < ?',
    [start, end],
  );
  return ofDay.map((r) => String(r.transaction_id));
}

/** What we recorded of these WeChat transactions (missing: unknown to us). */
export async function paymentAmounts(
  db: Db,
  transactionIds: string[],
): Promise<Map<string, { amountFen: number; currency: string }>> {
  if (!transactionIds.length) return new Map();
  const [rows] = await db.query<Row[]>(
    'SELECT transaction_id, amount_fen, currency FROM payments WHERE transaction_id IN (?)',
    [transactionIds],
  );
  return new Map(
    rows.map((r) => [
      String(r.transaction_id),
      { amountFen: Number(r.amount_fen), currency: String(r.currency) },
    ]),
  );
}

/** Our refund by its out_refund_no, with the transaction of the payment it refunds. */
export interface RefundToMatch {
  transactionId: string;
  amountFen: number;
  status: number;
}

export async function refundsByOutNo(db: Db, outRefundNos: string[]): Promise<Map<string, RefundToMatch>> {
  const ours = new Map<string, RefundToMatch>();
  if (!outRefundNos.length) return ours;
  const [rows] = await db.query<Row[]>(
    `SELECT r.out_refund_no, r.amount_fen, r.status, p.transaction_id
           FROM refunds r JOIN payments p ON p.id = r.payment_id WHERE r.out_refund_no IN (?)`,
    [outRefundNos],
  );
  for (const r of rows)
    ours.set(String(r.out_refund_no), {
      transactionId: String(r.transaction_id),
      amountFen: Number(r.amount_fen),
      status: Number(r.status),
    });
  return ours;
}

/** Our refunds requested and paid out both within [start, end). */
export async function refundsSucceededWithin(db: Db, start: Date, end: Date): Promise<string[]> {
  const [ofDay] = await db.query<Row[]>(
    `SELECT out_refund_no FROM refunds
        WHERE status = ? AND created_at >= ? AND finished_at < ? AND created_at < ? AND finished_at >= ?`,
    [REFUND_STATUS.SUCCESS, start, end, end, start],
  );
  return ofDay.map((r) => String(r.out_refund_no));
}
