import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import type { WechatPay } from '../wechat/pay';
import { parseTradeBill, type BillPayment, type BillRefund } from './bill';
import { REFUND_STATUS } from '../refunds/repo';
import type { PaymentService } from './service';

type Row = RowDataPacket & Record<string, any>;

export interface ReconcileReport {
  billDate: string;
  wechatPayments: number;
  ourPayments: number;
  wechatRefunds: number;
  ourRefunds: number;
  /** Payments WeChat took that we had not recorded (lost notifications): applied now. */
  recovered: number;
  /** What still disagrees after recovering: amounts, payments or refunds only one side knows. */
  unmatched: string[];
}

const DAY_MS = 86_400_000;
/** WeChat serves bills of the last three months; older days cannot be checked any more. */
const BILL_HISTORY_DAYS = 90;
/** A day claimed this long ago and still 'running' was abandoned by a crashed instance. */
const STALE_RUN_MS = 30 * 60_000;

/** A date in Beijing time (WeChat's bills are per Beijing day), shifted by `days`. */
export function beijingDate(now: Date, days = 0): string {
  return new Date(now.getTime() + 8 * 3_600_000 + days * DAY_MS).toISOString().slice(0, 10);
}

/** The UTC instants a Beijing day starts and ends at (it starts at 16:00 UTC the day before). */
function beijingDay(date: string): [Date, Date] {
  const start = Date.parse(`${date}T00:00:00+08:00`);
  return [new Date(start), new Date(start + DAY_MS)];
}

/**
 * Daily reconciliation against WeChat Pay's trade bill (bill type ALL). Every payment line must
 * be one of our payments with the same amount in CNY, and every refund line one of our refunds
 * with the same amount against the same payment, whatever day that payment was made. A payment
 * we missed is recovered through the normal path (query, then applyTransaction: tickets or a
 * refund follow); anything else is kept as a difference of that day. One instance claims each
 * day (primary key), so several can run the job; every day is checked, including days missed
 * while nothing ran.
 */
export class Reconciler {
  constructor(
    private readonly db: Db,
    private readonly pay: WechatPay,
    private readonly payments: PaymentService,
    private readonly log: Logger,
  ) {}

  /**
   * Reconciles every day whose bill is out (from about 10:00 Beijing time the next day) and that
   * has no result yet, oldest first, since the first payment (within WeChat's bill history).
   */
  async reconcileDue(now: Date): Promise<ReconcileReport[]> {
    const beijingHour = (now.getUTCHours() + 8) % 24;
    const last = beijingDate(now, beijingHour >= 10 ? -1 : -2);
    const [[first]] = await this.db.query<Row[]>('SELECT MIN(success_time) AS t FROM payments');
    if (!first?.t) return [];
    const from = [beijingDate(first.t as Date), beijingDate(now, -BILL_HISTORY_DAYS)].sort()[1]!;
    const [done] = await this.db.query<Row[]>(
      `SELECT DATE_FORMAT(bill_date, '%Y-%m-%d') AS d FROM reconciliations
        WHERE bill_date BETWEEN ? AND ? AND (status <> 'running' OR started_at >= ?)`,
      [from, last, new Date(now.getTime() - STALE_RUN_MS)],
    );
    const skip = new Set(done.map((r) => String(r.d)));
    const reports: ReconcileReport[] = [];
    for (let d = from; d <= last; d = beijingDate(new Date(`${d}T12:00:00+08:00`), 1)) {
      if (skip.has(d)) continue;
      try {
        const r = await this.reconcile(d, now);
        if (r) reports.push(r);
      } catch (err) {
        this.log.warn({ err, billDate: d }, 'reconciliation failed; the day is tried again later');
      }
    }
    return reports;
  }

  /** The kept results, newest day first. */
  async results(limit = 60): Promise<Row[]> {
    const [rows] = await this.db.query<Row[]>(
      `SELECT DATE_FORMAT(bill_date, '%Y-%m-%d') AS billDate, status, wechat_payments, our_payments,
              wechat_refunds, our_refunds, recovered, unmatched, details, started_at, finished_at
         FROM reconciliations ORDER BY bill_date DESC LIMIT ?`,
      [limit],
    );
    return rows;
  }

  async reconcile(billDate: string, now: Date): Promise<ReconcileReport | undefined> {
    if (!(await this.claim(billDate, now))) return undefined; // done, or being done, elsewhere
    try {
      const report = await this.compare(billDate, now);
      await this.db.query(
        `UPDATE reconciliations SET status = ?, wechat_payments = ?, our_payments = ?, wechat_refunds = ?,
           our_refunds = ?, recovered = ?, unmatched = ?, details = ?, finished_at = ? WHERE bill_date = ?`,
        [
          report.unmatched.length ? 'differences' : 'ok',
          report.wechatPayments,
          report.ourPayments,
          report.wechatRefunds,
          report.ourRefunds,
          report.recovered,
          report.unmatched.length,
          JSON.stringify(report.unmatched.slice(0, 500)),
          now,
          billDate,
        ],
      );
      if (report.unmatched.length)
        this.log.error(
          { billDate, unmatched: report.unmatched.slice(0, 20) },
          'reconciliation found differences',
        );
      return report;
    } catch (err) {
      await this.db.query('DELETE FROM reconciliations WHERE bill_date = ?', [billDate]); // let a later run retry
      throw err;
    }
  }

  /** Claims a day: a new row, or a 'running' one whose instance died long ago. */
  private async claim(billDate: string, now: Date): Promise<boolean> {
    const [ins] = await this.db.query<ResultSetHeader>(
      "INSERT IGNORE INTO reconciliations (bill_date, status, started_at) VALUES (?, 'running', ?)",
      [billDate, now],
    );
    if (ins.affectedRows === 1) return true;
    const [upd] = await this.db.query<ResultSetHeader>(
      "UPDATE reconciliations SET started_at = ? WHERE bill_date = ? AND status = 'running' AND started_at < ?",
      [now, billDate, new Date(now.getTime() - STALE_RUN_MS)],
    );
    return upd.affectedRows === 1;
  }

  private async compare(billDate: string, now: Date): Promise<ReconcileReport> {
    const csv = await this.pay.tradeBill(billDate);
    const lines = csv ? parseTradeBill(csv) : [];
    const billPayments = lines.filter((l): l is BillPayment => l.kind === 'payment');
    const billRefunds = lines.filter((l): l is BillRefund => l.kind === 'refund');
    const unmatched: string[] = [];
    const payments = await this.comparePayments(billDate, billPayments, now, unmatched);
    const ourRefunds = await this.compareRefunds(billDate, billRefunds, unmatched);
    return {
      billDate,
      wechatPayments: billPayments.length,
      ourPayments: payments.ours,
      wechatRefunds: billRefunds.length,
      ourRefunds,
      recovered: payments.recovered,
      unmatched,
    };
  }

  private async comparePayments(
    billDate: string,
    lines: BillPayment[],
    now: Date,
    unmatched: string[],
  ): Promise<{ ours: number; recovered: number }> {
    const [start, end] = beijingDay(billDate);
    const [ofDay] = await this.db.query<Row[]>(
      'SELECT transaction_id FROM payments WHERE success_time >= ? AND success_time < ?',
      [start, end],
    );
    const known = await this.amountsOf(lines.map((l) => l.transactionId));
    let recovered = 0;
    for (const l of lines) {
      const ours = known.get(l.transactionId);
      const amount = ours?.amountFen;
      // Money in another currency is a difference only when we recorded another currency: one we
      // know as such (payments.currency) was refunded in full when recorded, its refund line
      // reconciles below; one recovered here is recorded and refunded by applyTransaction.
      if (ours && l.currency !== ours.currency)
        unmatched.push(`${l.transactionId}: paid in ${l.currency}, we recorded ${ours.currency}`);
      if (amount === undefined) {
        const tx = await this.pay.query(l.outTradeNo);
        if (tx?.trade_state === 'SUCCESS' && tx.transaction_id === l.transactionId) {
          await this.payments.applyTransaction(tx, now);
          recovered++;
        } else unmatched.push(`${l.transactionId}: in the bill, unknown to us`);
      } else if (amount !== l.totalFen)
        unmatched.push(`${l.transactionId}: we recorded ${amount} fen, the bill says ${l.totalFen}`);
    }
    const inBill = new Set(lines.map((l) => l.transactionId));
    for (const r of ofDay)
      if (!inBill.has(String(r.transaction_id))) unmatched.push(`${r.transaction_id}: ours, not in the bill`);
    return { ours: ofDay.length, recovered };
  }

  private async amountsOf(
    transactionIds: string[],
  ): Promise<Map<string, { amountFen: number; currency: string }>> {
    if (!transactionIds.length) return new Map();
    const [rows] = await this.db.query<Row[]>(
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

  /**
   * Refund lines are matched by out_refund_no, whatever day their payment was made. Our refunds
   * requested and finished within the day must be in its bill (WeChat dates a refund line by
   * acceptance or by success depending on the layout; one inside the day is there either way).
   */
  private async compareRefunds(billDate: string, lines: BillRefund[], unmatched: string[]): Promise<number> {
    const ours = new Map<string, Row>();
    if (lines.length) {
      const [rows] = await this.db.query<Row[]>(
        `SELECT r.out_refund_no, r.amount_fen, r.status, p.transaction_id
           FROM refunds r JOIN payments p ON p.id = r.payment_id WHERE r.out_refund_no IN (?)`,
        [lines.map((l) => l.outRefundNo)],
      );
      for (const r of rows) ours.set(String(r.out_refund_no), r);
    }
    for (const l of lines) {
      const r = ours.get(l.outRefundNo);
      if (!r) unmatched.push(`refund ${l.outRefundNo} (${l.transactionId}): in the bill, unknown to us`);
      else if (String(r.transaction_id) !== l.transactionId)
        unmatched.push(
          `refund ${l.outRefundNo}: ours refunds ${r.transaction_id}, the bill says ${l.transactionId}`,
        );
      else if (Number(r.amount_fen) !== l.refundFen)
        unmatched.push(
          `refund ${l.outRefundNo}: we asked for ${r.amount_fen} fen, the bill says ${l.refundFen}`,
        );
      else if (l.refundStatus === 'SUCCESS' && Number(r.status) === REFUND_STATUS.CLOSED)
        unmatched.push(`refund ${l.outRefundNo}: closed here, paid out by WeChat`);
    }
    const [start, end] = beijingDay(billDate);
    const [ofDay] = await this.db.query<Row[]>(
      `SELECT out_refund_no FROM refunds
        WHERE status = ? AND created_at >= ? AND finished_at < ? AND created_at < ? AND finished_at >= ?`,
      [REFUND_STATUS.SUCCESS, start, end, end, start],
    );
    const inBill = new Set(lines.map((l) => l.outRefundNo));
    for (const r of ofDay)
      if (!inBill.has(String(r.out_refund_no)))
        unmatched.push(`refund ${r.out_refund_no}: ours, not in the bill`);
    return ofDay.length;
  }
}
