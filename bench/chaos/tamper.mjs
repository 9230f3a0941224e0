// --tamper for the checks of exchanges and the waiting list (issue 16): after healing, one record
// per check is broken by hand, so the audit shows it sees each (run.mjs tamper()).
import { dist } from '../lib.mjs';

const { TICKET_STATUS } = dist('tickets/status.js');
const { EXCHANGE_STATUS, WAITLIST_STATUS: W } = dist('lifecycle/statuses.js');

/**
 * An exchanged ticket admitted; another made valid again (two live tickets for the exchange's
 * unit); a paid exchange put back to pending (its difference neither ticketed nor refunded); an
 * exchange refund's fee changed (the family's money no longer balances).
 */
export async function tamperExchanges(db, log) {
  const q = async (sql, args = []) => (await db.query(sql, args))[0];
  const done = [];
  const exchanged = await q('SELECT id FROM tickets WHERE status = ? ORDER BY id LIMIT 2', [
    TICKET_STATUS.EXCHANGED,
  ]);
  if (exchanged[0]) {
    await q(
      `INSERT INTO checkins (ticket_id, session_id, gate, staff_user_id, mode, scanned_at, recorded_at)
       SELECT id, session_id, 'TAMPER', 0, 'online', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3) FROM tickets WHERE id = ?`,
      [exchanged[0].id],
    );
    done.push('an exchanged ticket admitted');
  }
  if (exchanged[1]) {
    await q('UPDATE tickets SET status = ? WHERE id = ?', [TICKET_STATUS.VALID, exchanged[1].id]);
    done.push('an exchanged ticket valid again');
  }
  // Another exchange than the revived ticket's (its check reads done exchanges only).
  const [paid] = await q(
    `SELECT e.id FROM exchanges e JOIN payments p ON p.order_id = e.exchange_order_id
      WHERE e.status = ? AND NOT EXISTS (SELECT 1 FROM exchange_items ei
                                          WHERE ei.exchange_id = e.id AND ei.old_ticket_id = ?)
      ORDER BY e.id LIMIT 1`,
    [EXCHANGE_STATUS.DONE, exchanged[1]?.id ?? 0],
  );
  if (paid) {
    await q('UPDATE exchanges SET status = ? WHERE id = ?', [EXCHANGE_STATUS.PENDING, paid.id]);
    done.push(`paid exchange ${paid.id} pending again`);
  }
  const [rx] = await q("SELECT id FROM refunds WHERE kind = 'exchange' AND status = 2 ORDER BY id LIMIT 1");
  if (rx) {
    await q('UPDATE refunds SET fee_fen = fee_fen + 100 WHERE id = ?', [rx.id]);
    done.push(`exchange refund ${rx.id} counted 100 fen more`);
  }
  log(`tampered (exchanges): ${done.join('; ') || 'nothing to tamper with'}`);
}

/**
 * The waiting list: a unit of one offer put into another fan's offer made meanwhile; an entry
 * over the per-user limit; an earlier entry's offer moved an hour later (passed over).
 */
export async function tamperWaitlist(db, s, log) {
  const q = async (sql, args = []) => (await db.query(sql, args))[0];
  const done = [];
  const offers = await q(
    `SELECT w.id, w.user_id, w.tier_id, w.quantity, w.offered_at, w.created_at, o.status, i.id item, i.seat_id
       FROM waitlist_entries w JOIN orders o ON o.id = w.order_id JOIN order_items i ON i.order_id = o.id
      WHERE i.seat_id IS NOT NULL ORDER BY w.offered_at, w.id`,
  );
  // A pending offer holds its units until it expires, a paid one for good.
  const held = offers.find((x) => x.status === 1 || x.status === 2 || x.status === 3);
  const later = held && offers.find((x) => x.user_id !== held.user_id && x.offered_at >= held.offered_at);
  if (later) {
    await q('UPDATE order_items SET seat_id = ? WHERE id = ?', [held.seat_id, later.item]);
    done.push(`seat ${held.seat_id} of entry ${held.id}'s offer put into entry ${later.id}'s`);
  }
  const [holder] = await q(
    `SELECT o.user_id FROM orders o WHERE o.session_id = ? AND o.status = 3
        AND NOT EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.user_id = o.user_id AND w.tier_id = ? AND w.live = 1)
      LIMIT 1`,
    [s.id, s.zoneTier],
  );
  if (holder) {
    await q(
      `INSERT INTO waitlist_entries (session_id, tier_id, user_id, quantity, status, live, created_at)
       VALUES (?, ?, ?, 4, ?, 1, UTC_TIMESTAMP(3))`,
      [s.id, s.zoneTier, holder.user_id, W.WAITING],
    );
    done.push(`user ${holder.user_id} waits for 4 more units`);
  }
  const entries = await q(
    'SELECT id, tier_id, quantity, created_at, offered_at FROM waitlist_entries WHERE offered_at IS NOT NULL ORDER BY id',
  );
  const pair = entries
    .flatMap((f) => entries.map((e) => [f, e]))
    .find(
      ([f, e]) =>
        f.id < e.id &&
        f.tier_id === e.tier_id &&
        f.quantity <= e.quantity &&
        f.created_at.getTime() < e.offered_at.getTime() - 5000,
    );
  if (pair) {
    await q(
      `UPDATE waitlist_entries SET offered_at = offered_at + INTERVAL 1 HOUR,
         ended_at = IF(ended_at IS NULL, NULL, ended_at + INTERVAL 1 HOUR) WHERE id = ?`,
      [pair[0].id],
    );
    done.push(`entry ${pair[0].id}'s offer moved after entry ${pair[1].id}'s`);
  }
  log(`tampered (waiting list): ${done.join('; ') || 'nothing to tamper with'}`);
}
