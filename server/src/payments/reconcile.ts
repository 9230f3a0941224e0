import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import type { WechatPay } from '../wechat/pay';
import { parseTradeBill, type BillPayment, type BillRefund } from './bill';
import { REFUND_STATUS } from '../refunds/repo';
import type { PaymentService } from './service';
import {
  claimDay,
  daysDoneOrRunning,
  dropDay,
  finishDay,
  firstPaymentTime,
  paymentAmounts,
  reconciliationResults,
  refundsByOutNo,
  refundsSucceededWithin,
  transactionsBetween,
  type ReconciliationRow,
} from './reconcile-repo';

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
    const first = await firstPaymentTime(this.db);
    if (!first) return [];
    const from = [beijingDate(first), beijingDate(now, -BILL_HISTORY_DAYS)].sort()[1]!;
    const skip = await daysDoneOrRunning(this.db, from, last, new Date(now.getTime() - STALE_RUN_MS));
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
  results(limit = 60): Promise<ReconciliationRow[]> {
    return reconciliationResults(this.db, limit);
  }

  async reconcile(billDate: string, now: Date): Promise<ReconcileReport | undefined> {
    if (!(await this.claim(billDate, now))) return undefined; // done, or being done, elsewhere
    try {
      const report = await this.compare(billDate, now);
      await finishDay(this.db, billDate, {
        status: report.unmatched.length ? 'differences' : 'ok',
        wechatPayments: report.wechatPayments,
        ourPayments: report.ourPayments,
        wechatRefunds: report.wechatRefunds,
        ourRefunds: report.ourRefunds,
        recovered: report.recovered,
        unmatched: report.unmatched.length,
        details: JSON.stringify(report.unmatched.slice(0, 500)),
        finishedAt: now,
      });
      if (report.unmatched.length)
        this.log.error(
          { billDate, unmatched: report.unmatched.slice(0, 20) },
          'reconciliation found differences',
        );
      return report;
    } catch (err) {
      await dropDay(this.db, billDate); // let a later run retry
      throw err;
    }
  }

  /** Claims a day: a new row, or a 'running' one whose instance died long ago. */
  private claim(billDate: string, now: Date): Promise<boolean> {
    return claimDay(this.db, billDate, now, new Date(now.getTime() - STALE_RUN_MS));
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
    const ofDay = await transactionsBetween(this.db, start, end);
    const known = await paymentAmounts(
      this.db,
      lines.map((l) => l.transactionId),
    );
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
    for (const transactionId of ofDay)
      if (!inBill.has(transactionId)) unmatched.push(`${transactionId}: ours, not in the bill`);
    return { ours: ofDay.length, recovered };
  }

  /**
   * Refund lines are matched by out_refund_no, whatever day their payment was made. Our refunds
   * requested and finished within the day must be in its bill (WeChat dates a refund line by
   * acceptance or by success depending on the layout; one inside the day is there either way).
   */
  private async compareRefunds(billDate: string, lines: BillRefund[], unmatched: string[]): Promise<number> {
    const ours = await refundsByOutNo(
      this.db,
      lines.map((l) => l.outRefundNo),
    );
    for (const l of lines) {
      const r = ours.get(l.outRefundNo);
      if (!r) unmatched.push(`refund ${l.outRefundNo} (${l.transactionId}): in the bill, unknown to us`);
      else if (r.transactionId !== l.transactionId)
        unmatched.push(
          `refund ${l.outRefundNo}: ours refunds ${r.transactionId}, the bill says ${l.transactionId}`,
        );
      else if (r.amountFen !== l.refundFen)
        unmatched.push(
          `refund ${l.outRefundNo}: we asked for ${r.amountFen} fen, the bill says ${l.refundFen}`,
        );
      else if (l.refundStatus === 'SUCCESS' && r.status === REFUND_STATUS.CLOSED)
        unmatched.push(`refund ${l.outRefundNo}: closed here, paid out by WeChat`);
    }
    const [start, end] = beijingDay(billDate);
    const ofDay = await refundsSucceededWithin(this.db, start, end);
    const inBill = new Set(lines.map((l) => l.outRefundNo));
    for (const outRefundNo of ofDay)
      if (!inBill.has(outRefundNo)) unmatched.push(`refund ${outRefundNo}: ours, not in the bill`);
    return ofDay.length;
  }
}
