import type { ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import type { WechatPay } from '../wechat/pay';
import { parseTradeBill } from './bill';
import type { PaymentService } from './service';

export interface ReconcileReport {
  billDate: string;
  wechatPayments: number;
  ourPayments: number;
  /** Payments WeChat took that we had not recorded (lost notifications): applied now. */
  recovered: number;
  /** What still disagrees after recovering: amounts, payments only one side knows. */
  unmatched: string[];
}

/** A date in Beijing time (WeChat's bills are per Beijing day), shifted by `days`. */
export function beijingDate(now: Date, days = 0): string {
  return new Date(now.getTime() + 8 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Daily reconciliation against WeChat Pay's trade bill: every payment WeChat took must be one
 * of ours with the same amount. A payment we missed is recovered through the normal path (query,
 * then applyTransaction: tickets or a refund follow); anything else is reported. One instance
 * claims each day (primary key), so several can run the job.
 */
export class Reconciler {
  constructor(
    private readonly db: Db,
    private readonly pay: WechatPay,
    private readonly payments: PaymentService,
    private readonly log: Logger,
  ) {}

  async reconcile(billDate: string, now: Date): Promise<ReconcileReport | undefined> {
    const [claim] = await this.db.query<ResultSetHeader>(
      "INSERT IGNORE INTO reconciliations (bill_date, status, started_at) VALUES (?, 'running', ?)",
      [billDate, now],
    );
    if (claim.affectedRows === 0) return undefined; // done, or being done, elsewhere
    try {
      const report = await this.compare(billDate, now);
      await this.db.query(
        `UPDATE reconciliations SET status = ?, wechat_payments = ?, our_payments = ?, recovered = ?, unmatched = ?,
           details = ?, finished_at = ? WHERE bill_date = ?`,
        [
          report.unmatched.length ? 'differences' : 'ok',
          report.wechatPayments,
          report.ourPayments,
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

  private async compare(billDate: string, now: Date): Promise<ReconcileReport> {
    const csv = await this.pay.tradeBill(billDate);
    const lines = csv ? parseTradeBill(csv).filter((l) => l.state === 'SUCCESS' || l.state === 'REFUND') : [];
    const paid = new Map(lines.map((l) => [l.transactionId, l]));
    const [ours] = await this.db.query<RowDataPacket[]>(
      `SELECT transaction_id, amount_fen FROM payments
        WHERE success_time >= ? - INTERVAL 8 HOUR AND success_time < ? + INTERVAL 16 HOUR`,
      [billDate, billDate],
    );
    const known = new Map(ours.map((r) => [String(r.transaction_id), Number(r.amount_fen)]));
    const unmatched: string[] = [];
    let recovered = 0;
    for (const l of paid.values()) {
      const amount = known.get(l.transactionId);
      if (amount === undefined) {
        const tx = await this.pay.query(l.outTradeNo);
        if (tx?.trade_state === 'SUCCESS' && tx.transaction_id === l.transactionId) {
          await this.payments.applyTransaction(tx, now);
          recovered++;
        } else unmatched.push(`${l.transactionId}: in the bill, unknown to us`);
      } else if (amount !== l.totalFen)
        unmatched.push(`${l.transactionId}: we recorded ${amount} fen, the bill says ${l.totalFen}`);
    }
    for (const tx of known.keys()) if (!paid.has(tx)) unmatched.push(`${tx}: ours, not in the bill`);
    return { billDate, wechatPayments: paid.size, ourPayments: known.size, recovered, unmatched };
  }
}
