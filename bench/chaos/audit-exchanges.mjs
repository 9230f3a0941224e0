// The audit's exchange (改签) checks (issue 16), from MySQL and the simulator's money: an exchanged
// item keeps no live ticket, a paid difference ends ticketed or refunded, and the orders an
// exchange links (the original, the exchange order, an exchange of that...) balance to the fen as
// one family: what WeChat took for them = the value of their live tickets + what was refunded
// (fees kept included) + what is with an operator.
import { dist } from '../lib.mjs';

const { ORDER_STATUS } = dist('orders/types.js');
const { REFUND_STATUS } = dist('refunds/repo.js');
const { TICKET_STATUS } = dist('tickets/status.js');
const { EXCHANGE_STATUS } = dist('lifecycle/statuses.js');

const TICKET_LIVE = [TICKET_STATUS.VALID, TICKET_STATUS.TRANSFERRING, TICKET_STATUS.REFUNDING];

/** Order id -> its family's id (the smallest order id in it), for orders linked by an exchange. */
export async function exchangeFamilies(q) {
  const parent = new Map();
  const find = (x) => {
    while (parent.get(x) !== x) x = parent.get(x);
    return x;
  };
  for (const e of await q('SELECT original_order_id a, exchange_order_id b FROM exchanges')) {
    for (const x of [String(e.a), String(e.b)]) if (!parent.has(x)) parent.set(x, x);
    const [ra, rb] = [find(String(e.a)), find(String(e.b))];
    if (ra !== rb) parent.set(BigInt(ra) < BigInt(rb) ? rb : ra, BigInt(ra) < BigInt(rb) ? ra : rb);
  }
  return new Map([...parent.keys()].map((x) => [x, find(x)]));
}

/**
 * Each family's money: took - refunded - operator must be the value of its items still held by a
 * live ticket and in no open or done refund (a transferred item counts once: the receiver's).
 */
export async function familyBalance(q, families, money, m, bad) {
  const members = new Map();
  for (const [order, fam] of families) members.set(fam, [...(members.get(fam) ?? []), order]);
  for (const [fam, orders] of members) {
    const f = money.get(fam) ?? { took: 0, refunded: 0, operator: 0 };
    const [{ held }] = await q(
      `SELECT COALESCE(SUM(i.price_fen), 0) held FROM order_items i JOIN tickets t ON t.order_item_id = i.id
        WHERE i.order_id IN (?) AND t.status IN (?)
          AND NOT EXISTS (SELECT 1 FROM refund_items ri WHERE ri.live_item_id = i.id)`,
      [orders, TICKET_LIVE],
    );
    m.ticketed_fen += Number(held);
    m.refunded_fen += f.refunded;
    m.open_fen += f.operator;
    if (f.took - f.refunded - f.operator !== Number(held)) {
      const nos = (await q('SELECT order_no FROM orders WHERE id IN (?) ORDER BY id', [orders])).map(
        (o) => o.order_no,
      );
      bad.push(
        `exchanged orders ${nos.join('+')}: WeChat took ${f.took} fen, ${f.refunded} refunded, ` +
          `${f.operator} with an operator, live tickets worth ${held}`,
      );
    }
  }
}

/**
 * An exchanged item keeps no live ticket (the new order's ticket replaced it: one live ticket per
 * unit), a paid difference ends in the exchange's tickets or back with the fan. Returns counts.
 */
export async function auditExchanges(q, bad) {
  for (const r of await q(
    `SELECT t.ticket_no, t.status, e.id FROM exchange_items ei JOIN exchanges e ON e.id = ei.exchange_id
       JOIN tickets t ON t.order_item_id = ei.old_item_id
      WHERE e.status = ? AND t.status IN (?)`,
    [EXCHANGE_STATUS.DONE, TICKET_LIVE],
  ))
    bad.push(`ticket ${r.ticket_no} was given up by exchange ${r.id}, yet it is live (status ${r.status})`);
  for (const r of await q(
    `SELECT e.id, e.status, xo.order_no, xo.status ostatus, rf.status rstatus FROM exchanges e
       JOIN orders xo ON xo.id = e.exchange_order_id
       JOIN payments p ON p.order_id = xo.id AND p.outcome IN ('applied', 'late_applied')
       LEFT JOIN refunds rf ON rf.id = e.refund_id`,
  )) {
    const ticketed = [ORDER_STATUS.TICKETED, ORDER_STATUS.REFUNDED].includes(r.ostatus);
    const refunded = [REFUND_STATUS.SUCCESS, REFUND_STATUS.ABNORMAL].includes(r.rstatus);
    if (r.status === EXCHANGE_STATUS.DONE ? !ticketed : r.status !== EXCHANGE_STATUS.FAILED || !refunded)
      bad.push(
        `exchange ${r.id}: its difference was paid (order ${r.order_no}, status ${r.ostatus}), ` +
          `yet the exchange is ${r.status} and its refund ${r.rstatus ?? 'none'}`,
      );
  }
  const [c] = await q(
    `SELECT COUNT(*) asked, COALESCE(SUM(status = ?), 0) done, COALESCE(SUM(status = ?), 0) failed,
            COALESCE(SUM(status = ? AND diff_fen > 0), 0) up, COALESCE(SUM(status = ? AND diff_fen < 0), 0) down,
            COALESCE(SUM(status = ? AND diff_fen = 0), 0) same, COUNT(DISTINCT to_session_id) sessions,
            COALESCE(SUM(status = ? AND from_session_id <> to_session_id), 0) across
       FROM exchanges`,
    [
      EXCHANGE_STATUS.DONE,
      EXCHANGE_STATUS.FAILED,
      EXCHANGE_STATUS.DONE,
      EXCHANGE_STATUS.DONE,
      EXCHANGE_STATUS.DONE,
      EXCHANGE_STATUS.DONE,
    ],
  );
  const [{ n: lapsed }] = await q(
    'SELECT COUNT(*) n FROM exchanges e JOIN orders o ON o.id = e.exchange_order_id WHERE e.status = ? AND o.status = ?',
    [EXCHANGE_STATUS.PENDING, ORDER_STATUS.CANCELLED],
  );
  // Exchanges into a session the organiser cancelled: their orders refunded by the cancellation.
  const [cx] = await q(
    `SELECT COUNT(*) n, COALESCE(SUM(xo.status = ?), 0) refunded FROM exchanges e
       JOIN orders xo ON xo.id = e.exchange_order_id
       JOIN session_changes sc ON sc.session_id = e.to_session_id AND sc.kind = 'cancel'
      WHERE e.status = ?`,
    [ORDER_STATUS.REFUNDED, EXCHANGE_STATUS.DONE],
  );
  const out = Object.fromEntries(Object.entries(c).map(([k, v]) => [k, Number(v)]));
  return {
    ...out,
    unpaid_expired: Number(lapsed),
    in_cancelled: Number(cx.n),
    in_cancelled_refunded: Number(cx.refunded),
  };
}
