import { inTransaction, type Conn, type Db } from '../db/pool';
import { appError } from '../errors';
import { orders } from '../orders/repo';
import type { OrderRecord } from '../orders/types';
import { enqueue } from '../outbox/repo';
import { payments, type PaymentRecord } from '../payments/repo';
import {
  addRefundItems,
  nextRefundSeq,
  refundableItems,
  refundedOrOpenFen,
  type RefundableItem,
} from '../refunds/items-repo';
import { createRefund, type RefundRecord } from '../refunds/repo';
import { outRefundNo } from '../refunds/naming';
import { exchangeRefundNo } from './complete';
import { exchanges, nextExchangeSeq } from './repo';

/** An exchange chain is short (an exchange of an exchange...); this bounds a corrupt one. */
const MAX_CHAIN = 16;

/** One payment that holds part of an exchange order's value. */
interface Source {
  order: OrderRecord;
  payment: PaymentRecord;
  /** What it can still give back (paid, less its refunds not closed). */
  left: number;
}

/**
 * The refund of an exchange order's items (改签) by an operator or a session cancel (a buyer is
 * told before exchanging that the new tickets are not refundable). Its tickets' value is held by
 * several payments: the exchange order's own (the difference it paid, if any), then the original
 * order's (the old tickets' price, less a cheaper seat's difference refunded), then the
 * original's original for an exchange of an exchange. Each gives back its share by a refund of
 * its own (stable out_refund_no per payment); the first carries the items, so its success voids
 * the tickets and frees the seats as an order refund does. Every refund is recorded against the
 * exchange order, so a retry finds them (refunds/pick.ts answers the first), refunding nothing
 * twice. Called by refunds/service.ts refundOrder, in its transaction, with the order locked,
 * its items picked and checked (status, check-ins, transfers).
 */
export async function refundExchangeItems(
  conn: Conn,
  order: OrderRecord,
  items: RefundableItem[],
  o: { by: string; reason: string; now: Date },
): Promise<RefundRecord> {
  const value = items.reduce((s, i) => s + i.price_fen, 0);
  const shares = allocate(await sourcesOf(conn, order), value);
  let first: RefundRecord | undefined;
  for (const { src, fen } of shares) {
    const r = await refundShare(conn, order, src, fen, !first, o);
    if (!first) {
      first = r;
      await addRefundItems(conn, r.id, order.id, items);
    }
    // Every fen accounted for: no payment gives back more than it took (else all rolls back).
    if ((await refundedOrOpenFen(conn, src.payment.id)) > src.payment.amountFen)
      throw appError('REFUND_EXCEEDS_PAID');
  }
  if (!first) throw appError('ORDER_STATE_INVALID', undefined, '未找到该订单的支付记录');
  return first;
}

/**
 * An exchange order's value that cannot be refunded (a ticket of it admitted, say): one
 * hand-over to an operator for the whole family, naming each payment's share, so no original's
 * share is left behind as "nothing left" (its tickets went with this order). undefined: not an
 * exchange order.
 */
export async function exchangeHandOver(
  db: Db,
  orderId: string,
): Promise<{ fen: number; note: string } | undefined> {
  return inTransaction(db, async (conn) => {
    const order = await orders.byId(conn, orderId);
    if (!order || !(await doneExchangeOf(conn, order.id))) return undefined;
    const items = (await refundableItems(conn, order.id)).filter((i) => i.live_refund_id === null);
    let rest = items.reduce((s, i) => s + i.price_fen, 0);
    const fen = rest;
    const parts: string[] = [];
    for (const src of await sourcesOf(conn, order)) {
      const share = Math.min(rest, Math.max(0, src.left));
      if (share > 0) parts.push(`订单 ${src.order.orderNo} ${yuan(share)} 元`);
      rest -= share;
    }
    return {
      fen,
      note: `改签订单，${yuan(fen)} 元由以下支付承担：${parts.join('、') || '无'}，由运营一并处理`,
    };
  });
}

const yuan = (fen: number): string => (fen / 100).toFixed(2);

const doneExchangeOf = (conn: Conn, orderId: string) => exchanges.doneByExchangeOrder(conn, orderId);

/** The payments behind an exchange order, its own first, then along its originals (locked). */
async function sourcesOf(conn: Conn, order: OrderRecord): Promise<Source[]> {
  const out: Source[] = [];
  let cur: OrderRecord | undefined = order;
  for (let i = 0; cur && i < MAX_CHAIN; i++) {
    const payment = await payments.appliedOfOrderLocked(conn, cur.id);
    if (payment)
      out.push({
        order: cur,
        payment,
        left: payment.amountFen - (await refundedOrOpenFen(conn, payment.id)),
      });
    const ex = await doneExchangeOf(conn, cur.id);
    cur = ex ? await orders.byId(conn, ex.originalOrderId, { lock: true }) : undefined;
  }
  return out;
}

/** Splits `value` over the sources in order; refused if they cannot give it all back. */
function allocate(sources: Source[], value: number): { src: Source; fen: number }[] {
  const shares: { src: Source; fen: number }[] = [];
  let rest = value;
  for (const src of sources) {
    const fen = Math.min(rest, Math.max(0, src.left));
    if (fen > 0) shares.push({ src, fen });
    rest -= fen;
  }
  if (rest > 0) throw appError('REFUND_EXCEEDS_PAID');
  return shares;
}

/**
 * One share: the first an order refund (it carries the items; numbered among the payment's order
 * refunds), the others exchange refunds of their payment. Both recorded against the exchange
 * order; WeChat is asked on the payment's own trade (refunds/service.ts execute).
 */
async function refundShare(
  conn: Conn,
  order: OrderRecord,
  src: Source,
  fen: number,
  carriesItems: boolean,
  o: { by: string; reason: string; now: Date },
): Promise<RefundRecord> {
  const seq = carriesItems
    ? await nextRefundSeq(conn, src.payment.id)
    : await nextExchangeSeq(conn, src.payment.id);
  const { refund, created } = await createRefund(conn, {
    orderId: order.id,
    paymentId: src.payment.id,
    kind: carriesItems ? 'order' : 'exchange',
    seq,
    outRefundNo: carriesItems
      ? outRefundNo(src.order.orderNo, src.payment.id, 'order', seq)
      : exchangeRefundNo(src.order.orderNo, src.payment.id, seq),
    amountFen: fen,
    feeFen: 0,
    reason: o.reason,
    requestedBy: o.by,
    now: o.now,
  });
  if (created) await enqueue(conn, 'refund.requested', refund.id, { refundId: refund.id });
  return refund;
}
