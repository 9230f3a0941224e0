import type { Logger } from 'pino';
import type { WechatConfig } from '../config/wechat';
import { GroupCommit, type Pending } from '../db/group-commit';
import { inTransaction, type Conn, type Db } from '../db/pool';
import { lockOrdersByNo } from '../orders/repo';
import { ORDER_STATUS, type OrderRecord } from '../orders/types';
import type { WxTransaction } from '../wechat/pay';
import { CURRENCY, markPaid, paymentRow, suspicion, type ApplyResult } from './receipt';
import { insertPayments } from './repo';

/** One notified transaction waiting for its batch; `result` is set once it is applied. */
interface Receipt {
  tx: WxTransaction;
  now: Date;
  result?: ApplyResult;
}

export interface NotifiedPaymentsDeps {
  db: Db;
  wechat: WechatConfig;
  log: Logger;
  /** PaymentService's: one receipt alone, and what follows a receipt's commit. */
  payments: {
    applyTransaction(tx: WxTransaction, now: Date): Promise<ApplyResult>;
    afterApply(result: ApplyResult, buyers: readonly string[]): Promise<void>;
  };
}

/**
 * WeChat's payment notifications that arrive together, applied in one transaction of six
 * statements (the orders locked in id order, their payments, their move to paid with one
 * paid_at, their outbox rows), where each took six of its own. On the pay path the notify
 * transaction was most of the statements left per paid order (bench --scenario pay).
 *
 * Only the plain case is batched: a success in CNY of the right amount for a PENDING order,
 * once in the batch. Everything else (a suspicious, late, duplicate or foreign-currency
 * payment, a second notification of the same order) is left to applyTransaction, alone, after
 * the batch commits, so every rule of money received keeps one home. Invariants as
 * applyTransaction's: the order rows are locked, then re-read and decided; the payment's unique
 * transaction id makes a repeat change nothing. The payments' INSERT is not IGNORE: a
 * transaction recorded before refuses the whole batch, which is rolled back, and every receipt
 * of it goes alone.
 */
export class NotifiedPayments extends GroupCommit<Receipt> {
  constructor(
    private readonly d: NotifiedPaymentsDeps,
    o: { batchMax: number; inflightMax: number },
  ) {
    super(o);
  }

  /** applyTransaction, batched with the notifications that arrive with this one. */
  async apply(tx: WxTransaction, now: Date): Promise<ApplyResult> {
    const r: Receipt = { tx, now };
    await this.submit(r);
    return r.result!;
  }

  protected async flush(batch: Pending<Receipt>[]): Promise<void> {
    const receipts = batch.map((p) => p.item);
    let applied: { order: OrderRecord; r: Receipt }[] = [];
    try {
      applied = await inTransaction(this.d.db, (conn) => this.applyLive(conn, receipts));
    } catch (err) {
      this.d.log.warn({ err, size: receipts.length }, 'payments batch failed; applying one by one');
    }
    // Committed: these are applied. The metric, the relay nudged, the buyers' streaks ended.
    for (const { r } of applied) r.result = 'applied';
    if (applied.length)
      await this.d.payments.afterApply(
        'applied',
        applied.map(({ order }) => order.userId),
      );
    await Promise.all(
      batch.map(async (p) => {
        try {
          p.item.result ??= await this.d.payments.applyTransaction(p.item.tx, p.item.now);
          p.resolve();
        } catch (err) {
          p.reject(err as Error);
        }
      }),
    );
  }

  /** The batch's transaction: the plain receipts it applies (known applied once it commits). */
  private async applyLive(conn: Conn, receipts: Receipt[]) {
    const locked = await lockOrdersByNo(conn, [...new Set(receipts.map((r) => r.tx.out_trade_no))]);
    const byNo = new Map(locked.map((o) => [o.orderNo, o]));
    const chosen = new Map<string, { order: OrderRecord; r: Receipt }>();
    for (const r of receipts) {
      const order = byNo.get(r.tx.out_trade_no);
      const plain =
        order &&
        order.status === ORDER_STATUS.PENDING &&
        !suspicion(this.d.wechat, r.tx, order) &&
        (r.tx.amount?.currency ?? CURRENCY) === CURRENCY &&
        !chosen.has(order.id);
      if (plain) chosen.set(order.id, { order, r });
    }
    const live = [...chosen.values()];
    if (live.length === 0) return [];
    const paidAt = new Date(Math.max(...live.map(({ r }) => r.now.getTime())));
    await insertPayments(
      conn,
      live.map(({ order, r }) => paymentRow(order.id, r.tx, CURRENCY, r.now, 'applied')),
    );
    await markPaid(
      conn,
      live.map(({ order }) => order),
      paidAt,
    );
    return live;
  }
}
