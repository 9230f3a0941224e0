// A session cancelled by the organiser mid-run (issue 16): the session of a second show, on a
// venue of its own (its seat ids are its own), sold to a share of the buyers, then cancelled
// through the admin API while faults go on. After healing the audit checks that every payment
// of it came back in full (or is with an operator, its reason recorded) and none of its tickets
// would let anyone in.
import { dist } from '../lib.mjs';
import { call } from './calls.mjs';
import { seedSideShow, sessionSummary } from './side-show.mjs';
import { exchangeFamilies } from './audit-exchanges.mjs';

const { ORDER_STATUS } = dist('orders/types.js');
const { REFUND_STATUS } = dist('refunds/repo.js');
const { TICKET_STATUS } = dist('tickets/status.js');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The run's operator (the bootstrap account stack.mjs configures). */
export async function adminLogin(url) {
  const body = { username: 'admin', password: 'chaos-only-admin-password' };
  const r = await call(url, 'POST', '/api/v1/admin/login', { body });
  if (r.status !== 200) throw new Error(`admin login ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.token;
}

/** The show allows transfers (转赠), set as an organiser does: the admin API. */
export async function allowTransfers(url, adminToken, showId) {
  const body = { enabled: true, cutoffMinutes: 120, onceOnly: true };
  const r = await call(url, 'PUT', `/api/v1/admin/shows/${showId}/transfer-settings`, {
    token: adminToken,
    body,
  });
  if (r.status !== 200) throw new Error(`transfer settings ${r.status} ${JSON.stringify(r.body)}`);
}

/**
 * The second session: a show and venue of its own (a show has one venue, so its seat ids are
 * its own), on sale now, starting in two days, the run's staff assigned to scan it.
 */
export async function seedCancelSession(deps, { buyers, staffId, now }) {
  const zoneCapacity = Math.max(10, Math.floor(buyers * 0.1));
  const { id, showId, cat } = await seedSideShow(deps, {
    venueName: '混沌小剧场',
    section: 'B',
    rows: Math.max(2, Math.ceil((buyers * 0.25) / 20)),
    seatsPerRow: 20,
    zoneName: '站区',
    zoneCapacity,
    title: '混沌演出（加场）',
    startsInDays: 2,
    purchaseLimit: 4,
    seatFen: 28_000,
    zoneFen: 48_000,
    staffId,
    now,
  });
  return sessionSummary(id, showId, cat, zoneCapacity);
}

/**
 * The organiser cancels the session after `afterMs`, whatever is failing then: the request is
 * retried until it is applied (a lost answer's retry reads SESSION_STATE_INVALID `cancelled`).
 * Resolves to the second of the run it went through, or null if it never did.
 */
export async function cancelMidRun(url, sessionId, { afterMs, log }) {
  await sleep(afterMs);
  const t0 = Date.now();
  while (Date.now() - t0 < 120_000) {
    try {
      const token = await adminLogin(url);
      const r = await call(url, 'POST', `/api/v1/admin/sessions/${sessionId}/cancel`, {
        token,
        body: { reason: '混沌演练：主办方取消场次' },
      });
      const done = r.status === 200 || r.body?.error?.details?.status === 'cancelled';
      log(
        `organiser cancels session ${sessionId}: ${r.status} ${done ? 'cancelled' : JSON.stringify(r.body)}`,
      );
      if (done) return true;
    } catch (e) {
      log(`organiser cancel of session ${sessionId} failed (${e.message}); again`);
    }
    await sleep(2000);
  }
  return false;
}

/** After healing: the cancellation is done, every payment of it back, no ticket of it admissible. */
export async function auditCancelled(stack, session, bad) {
  const q = async (sql, args = []) => (await stack.deps.db.query(sql, args))[0];
  const [change] = await q(
    "SELECT id, state, created_at FROM session_changes WHERE session_id = ? AND kind = 'cancel'",
    [session.id],
  );
  if (!change) return void bad.push(`session ${session.id} was never cancelled`);
  if (change.state !== 'done') bad.push(`the cancellation of session ${session.id} is still ${change.state}`);
  for (const t of await q('SELECT ticket_no, status FROM tickets WHERE session_id = ? AND status IN (?)', [
    session.id,
    [TICKET_STATUS.VALID, TICKET_STATUS.TRANSFERRING],
  ]))
    bad.push(`ticket ${t.ticket_no} of cancelled session ${session.id} is admissible (status ${t.status})`);
  for (const o of await q(
    `SELECT o.order_no, o.status FROM orders o WHERE o.session_id = ? AND o.status IN (?)`,
    [session.id, [ORDER_STATUS.PENDING, ORDER_STATUS.PAID]],
  ))
    bad.push(`order ${o.order_no} of cancelled session ${session.id} still has status ${o.status}`);
  await auditCancelledMoney(stack, q, session, change, bad);
}

/**
 * Each payment WeChat took for the session: refunded in full, or with an operator and a reason.
 * In full: a fee counts as given back only if its refund was done before the cancellation (the
 * fan's own choice then); a refund in flight at the cancel or asked after gives it back (issue 16).
 * Orders linked by exchanges (改签) share their tickets' value: what their payments did not give
 * back must be covered, to the fen, by the operator hand-overs of the family (an exchange order's
 * names every payment's share) and its refund cases.
 */
async function auditCancelledMoney(stack, q, session, change, bad) {
  const trades = new Map(stack.sim.orders().map((o) => [o.transaction_id, o]));
  const refunds = stack.sim.refunds().filter((rf) => rf.status === 'SUCCESS');
  const families = await exchangeFamilies(q);
  const short = new Map();
  const pays = await q(
    `SELECT p.id, p.transaction_id, o.id order_id, o.order_no FROM payments p JOIN orders o ON o.id = p.order_id
      WHERE o.session_id = ? AND p.transaction_id IS NOT NULL`,
    [session.id],
  );
  for (const p of pays) {
    const trade = trades.get(p.transaction_id);
    if (!trade || (trade.trade_state !== 'SUCCESS' && trade.trade_state !== 'REFUND')) continue;
    const back = await backOf(q, p, trade, refunds, change);
    if (back >= trade.amount.total) continue;
    const family = families.get(String(p.order_id));
    if (family) {
      const f = short.get(family) ?? { fen: 0, nos: [] };
      f.fen += trade.amount.total - back;
      f.nos.push(p.order_no);
      short.set(family, f);
    } else if (!(await withOperator(q, change.id, [p.order_id])))
      bad.push(
        `order ${p.order_no} of cancelled session ${session.id}: ${trade.amount.total} fen taken, ${back} refunded, no operator case`,
      );
  }
  for (const [family, f] of short) {
    const orders = [...families].filter(([, fam]) => fam === family).map(([o]) => o);
    const handed = await withOperator(q, change.id, orders);
    if (handed < f.fen)
      bad.push(
        `exchanged orders ${f.nos.join('+')} of cancelled session ${session.id}: ${f.fen} fen not refunded, ${handed} with an operator`,
      );
  }
}

/** What WeChat gave back of one trade, with the fees kept by refunds done before the cancel. */
async function backOf(q, p, trade, refunds, change) {
  const ours = await q(
    'SELECT out_refund_no, fee_fen, finished_at FROM refunds WHERE payment_id = ? AND status = ?',
    [p.id, REFUND_STATUS.SUCCESS],
  );
  let back = 0;
  for (const rf of refunds.filter((x) => x.out_trade_no === trade.out_trade_no)) {
    const mine = ours.find((x) => x.out_refund_no === rf.out_refund_no);
    const kept = mine && mine.finished_at < change.created_at ? mine.fee_fen : 0;
    back += rf.amount.refund + kept;
  }
  return back;
}

/**
 * The fen an operator holds for these orders: the change's hand-overs (refused with a reason)
 * and the refund cases of their payments. (A case or a hand-over with no amount counts 1: the
 * operator has it, its amount is the order's.)
 */
async function withOperator(q, changeId, orderIds) {
  const [r] = await q(
    `SELECT COALESCE((SELECT SUM(GREATEST(amount_fen, 1)) FROM session_change_orders WHERE change_id = ?
              AND order_id IN (?) AND state = 'failed' AND error IS NOT NULL AND error <> ''), 0)
          + COALESCE((SELECT SUM(GREATEST(r.amount_fen + r.fee_fen, 1)) FROM refund_cases rc
              JOIN refunds r ON r.id = rc.refund_id JOIN payments p ON p.id = r.payment_id
             WHERE p.order_id IN (?)), 0) AS fen`,
    [changeId, orderIds, orderIds],
  );
  return Number(r.fen);
}
