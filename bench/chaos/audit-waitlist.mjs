// The audit's waiting-list (候补) checks (issue 16), from MySQL: no unit was held by two fans'
// offers at once, no fan holds and waits for more than the session's per-user limit, and offers
// went in join order per tier (as far as the record tells: an earlier entry asking for no more
// units was not passed over while it waited).
import { dist } from '../lib.mjs';

const { ORDER_STATUS } = dist('orders/types.js');
const { REFUND_STATUS } = dist('refunds/repo.js');
const { WAITLIST_STATUS: W } = dist('lifecycle/statuses.js');

const LIVE = [ORDER_STATUS.PENDING, ORDER_STATUS.PAID, ORDER_STATUS.TICKETED];
/** A run's clock (`now`) and its commits differ by a moment: checks allow this much. */
const SLACK_MS = 2000;
const FOREVER = 8.64e15;
/**
 * An offer's record may be stamped up to a run's length early: a run asked for during another
 * (a release's kick) reruns with the first caller's time (waitlist/service.ts runNow), seen
 * 4 s early in the full run. Two offers of a unit must overlap by more than this to count.
 */
const STAMP_SLACK_MS = 10_000;

/** Returns the lines' counts; pushes violations. */
export async function auditWaitlist(q, bad) {
  await offersOverlap(q, bad);
  await perUserLimit(q, bad);
  await joinOrder(q, bad);
  const counts = {};
  const names = {
    1: 'waiting',
    2: 'offered',
    3: 'fulfilled',
    4: 'lapsed',
    5: 'declined',
    6: 'left',
    7: 'ended',
  };
  for (const r of await q('SELECT status, COUNT(*) n FROM waitlist_entries GROUP BY status'))
    counts[names[r.status] ?? r.status] = Number(r.n);
  const [{ n }] = await q('SELECT COUNT(*) n FROM waitlist_entries WHERE offered_at IS NOT NULL');
  counts.offers = Number(n);
  return counts;
}

/**
 * Each offer holds its units from the offer until its order was cancelled (lapsed, declined) or
 * ran out of time (expire_at: the gate frees the hold then, before the expiry job cancels the
 * order; a payment after it is not honoured over a later offer) or, paid, until a refund of the
 * unit succeeded. Two fans' offers never hold a unit at once.
 */
async function offersOverlap(q, bad) {
  const rows = await q(
    `SELECT w.id entry, w.user_id, o.session_id, o.status, i.seat_id, i.zone_id, i.slot_no,
            COALESCE(w.offered_at, o.created_at) t0, LEAST(COALESCE(o.cancelled_at, o.expire_at), o.expire_at) ended,
            (SELECT MIN(rf.finished_at) FROM refund_items ri JOIN refunds rf ON rf.id = ri.refund_id
              WHERE ri.order_item_id = i.id AND rf.status = ?) refunded_at
       FROM waitlist_entries w JOIN orders o ON o.id = w.order_id JOIN order_items i ON i.order_id = o.id`,
    [REFUND_STATUS.SUCCESS],
  );
  const byUnit = new Map();
  for (const r of rows) {
    const unit = `${r.session_id}/${r.seat_id ?? `z${r.zone_id}#${r.slot_no}`}`;
    const end =
      r.status === ORDER_STATUS.CANCELLED ? r.ended.getTime() : (r.refunded_at?.getTime() ?? FOREVER);
    const list = byUnit.get(unit) ?? [];
    list.push({ entry: String(r.entry), user: String(r.user_id), from: r.t0.getTime(), end });
    byUnit.set(unit, list);
  }
  for (const [unit, offers] of byUnit)
    for (let a = 0; a < offers.length; a++)
      for (let b = a + 1; b < offers.length; b++) {
        const [x, y] = [offers[a], offers[b]];
        if (x.user !== y.user && x.from + STAMP_SLACK_MS < y.end && y.from + STAMP_SLACK_MS < x.end)
          bad.push(`unit ${unit} was offered to entries ${x.entry} and ${y.entry} at once`);
      }
}

/** Units a fan holds in live orders plus units they wait for, per session with a line. */
async function perUserLimit(q, bad) {
  for (const r of await q(
    `SELECT u.user_id, u.session_id, SUM(u.n) n, s.purchase_limit lim FROM (
        SELECT o.user_id, o.session_id, COUNT(*) n FROM order_items i JOIN orders o ON o.id = i.order_id
         WHERE o.status IN (?) AND o.session_id IN (SELECT session_id FROM waitlist_entries)
           AND NOT EXISTS (SELECT 1 FROM refund_items ri JOIN refunds rr ON rr.id = ri.refund_id
                            WHERE ri.live_item_id = i.id AND rr.status = ?)
         GROUP BY o.user_id, o.session_id
        UNION ALL
        SELECT user_id, session_id, SUM(quantity) n FROM waitlist_entries WHERE status = ?
         GROUP BY user_id, session_id) u
       JOIN show_sessions s ON s.id = u.session_id
      GROUP BY u.user_id, u.session_id, s.purchase_limit HAVING n > lim`,
    [LIVE, REFUND_STATUS.SUCCESS, W.WAITING],
  ))
    bad.push(
      `user ${r.user_id} holds and waits for ${r.n} units of session ${r.session_id} (limit ${r.lim})`,
    );
}

/**
 * An entry offered at t: no earlier entry of its tier asking for no more units was waiting at t
 * (joined before, neither offered nor ended by then) — it would have been offered first.
 */
async function joinOrder(q, bad) {
  for (const r of await q(
    `SELECT e.id, f.id ahead, e.tier_id FROM waitlist_entries e JOIN waitlist_entries f
         ON f.session_id = e.session_id AND f.tier_id = e.tier_id AND f.id < e.id AND f.quantity <= e.quantity
      WHERE e.offered_at IS NOT NULL
        AND f.created_at < e.offered_at - INTERVAL ? MICROSECOND
        AND (f.offered_at IS NULL OR f.offered_at > e.offered_at + INTERVAL ? MICROSECOND)
        AND (f.ended_at IS NULL OR f.ended_at > e.offered_at + INTERVAL ? MICROSECOND)`,
    [SLACK_MS * 1000, SLACK_MS * 1000, SLACK_MS * 1000],
  ))
    bad.push(
      `waiting-list entry ${r.id} of tier ${r.tier_id} was offered while entry ${r.ahead}, ahead of it, waited`,
    );
}
