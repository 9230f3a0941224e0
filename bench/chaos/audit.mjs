// The chaos run's audit, from MySQL (the record), the run's Redis and the simulator's state (what
// WeChat took and gave back). Returns the violations in words and the money totals.
import amqp from 'amqplib';
import { dist } from '../lib.mjs';
import { auditExchanges, exchangeFamilies, familyBalance } from './audit-exchanges.mjs';
import { auditWaitlist } from './audit-waitlist.mjs';

// The Lua value formats' twin (server/src/redis/records.ts), as built.
const { seatValue } = dist('redis/records.js');

const { ORDER_STATUS } = dist('orders/types.js');
const { REFUND_STATUS, REFUND_BLOCKS_ADMISSION } = dist('refunds/repo.js');
const { TICKET_STATUS } = dist('tickets/status.js');
const { QUEUES } = dist('workers.js');
const { beijingDate } = dist('payments/reconcile.js');
const { SESSION_STATUS } = dist('catalog/types.js');

const LIVE = [ORDER_STATUS.PENDING, ORDER_STATUS.PAID, ORDER_STATUS.TICKETED];
/** A ticket that still stands for its seat: not voided, not handed on by a transfer. */
const TICKET_LIVE = [TICKET_STATUS.VALID, TICKET_STATUS.TRANSFERRING, TICKET_STATUS.REFUNDING];

/**
 * An order item still sold: not given back by a per-ticket refund that succeeded, nor by an
 * exchange (改签) that moved its ticket to another order's item (issue 16).
 */
const ITEM_LIVE = `NOT EXISTS (SELECT 1 FROM refund_items ri JOIN refunds rr ON rr.id = ri.refund_id
  WHERE ri.live_item_id = i.id AND rr.status = ${REFUND_STATUS.SUCCESS})
  AND NOT EXISTS (SELECT 1 FROM tickets xt WHERE xt.order_item_id = i.id AND xt.status = ${TICKET_STATUS.EXCHANGED})`;

/**
 * Everything but reconciliation (which claims a day, so it runs once the rest holds). `others`:
 * further sessions of the run (the cancelled one), whose Redis must agree with MySQL too.
 */
export async function audit(stack, session, { others = [] } = {}) {
  const db = stack.deps.db;
  const q = async (sql, args = []) => (await db.query(sql, args))[0];
  const bad = [];

  await auditSoldOnce(q, [session, ...others], bad);
  await auditAdmissible(q, bad);
  const money = await auditMoney(stack, q, bad);
  const counts = await auditTransfers(q, bad);
  counts.exchanges = await auditExchanges(q, bad);
  counts.waitlist = await auditWaitlist(q, bad);
  counts.refunds = await refundCounts(q);
  await auditDeadLetters(stack, q, bad);
  for (const s of [session, ...others]) await auditRedis(stack, q, s, bad);
  const [{ n }] = await q("SELECT COUNT(*) n FROM session_changes WHERE kind = 'cancel' AND state = 'done'");
  counts.cancelled_sessions = Number(n);
  return { violations: bad, money, counts };
}

/** Every seat and zone unit sold at most once, and no zone over its capacity. */
async function auditSoldOnce(q, sessions, bad) {
  // Every seat (and zone unit) sold at most once, in live orders and in tickets.
  // Per session: the sessions of one show share their venue's seat and zone ids (issue 16).
  for (const r of await q(
    `SELECT o.session_id, i.seat_id, COUNT(*) n FROM order_items i JOIN orders o ON o.id = i.order_id
      WHERE o.status IN (?) AND i.seat_id IS NOT NULL AND ${ITEM_LIVE}
      GROUP BY o.session_id, i.seat_id HAVING n > 1`,
    [LIVE],
  ))
    bad.push(`seat ${r.seat_id} of session ${r.session_id} is in ${r.n} live orders`);
  for (const r of await q(
    `SELECT o.session_id, i.zone_id, i.slot_no, COUNT(*) n FROM order_items i JOIN orders o ON o.id = i.order_id
      WHERE o.status IN (?) AND i.seat_id IS NULL AND ${ITEM_LIVE}
      GROUP BY o.session_id, i.zone_id, i.slot_no HAVING n > 1`,
    [LIVE],
  ))
    bad.push(`zone ${r.zone_id} unit ${r.slot_no} of session ${r.session_id} is in ${r.n} live orders`);
  for (const r of await q(
    `SELECT session_id, seat_id, COUNT(*) n FROM tickets WHERE status IN (?) AND seat_id IS NOT NULL
      GROUP BY session_id, seat_id HAVING n > 1`,
    [TICKET_LIVE],
  ))
    bad.push(`seat ${r.seat_id} of session ${r.session_id} has ${r.n} live tickets`);
  for (const s of sessions) {
    const [zoneLive] = await q(
      `SELECT COUNT(*) n FROM order_items i JOIN orders o ON o.id = i.order_id
        WHERE o.status IN (?) AND o.session_id = ? AND i.zone_id = ? AND i.seat_id IS NULL AND ${ITEM_LIVE}`,
      [LIVE, s.id, s.zoneId],
    );
    if (Number(zoneLive.n) > s.zoneCapacity)
      bad.push(`zone ${s.zoneId} of session ${s.id}: ${zoneLive.n} live units > capacity ${s.zoneCapacity}`);
  }
}

/** Which tickets may be admitted: none refunded, none of a dead order, none checked in then refunded. */
async function auditAdmissible(q, bad) {
  // No admissible ticket whose item is in an open or done refund, and none of a dead order.
  for (const r of await q(
    `SELECT t.ticket_no, o.order_no, rf.status FROM tickets t JOIN orders o ON o.id = t.order_id
       JOIN refund_items ri ON ri.order_item_id = t.order_item_id
       JOIN refunds rf ON rf.id = ri.refund_id AND rf.kind = 'order'
      WHERE t.status = ? AND rf.status IN (?)`,
    [TICKET_STATUS.VALID, REFUND_BLOCKS_ADMISSION],
  ))
    bad.push(
      `ticket ${r.ticket_no} of order ${r.order_no} is admissible while its refund is in state ${r.status}`,
    );
  for (const r of await q(
    `SELECT t.ticket_no, o.order_no, o.status FROM tickets t JOIN orders o ON o.id = t.order_id
      WHERE t.status IN (?) AND o.status <> ?`,
    [[TICKET_STATUS.VALID, TICKET_STATUS.TRANSFERRING], ORDER_STATUS.TICKETED],
  ))
    bad.push(`ticket ${r.ticket_no} is admissible but its order ${r.order_no} has status ${r.status}`);
  // No checked-in ticket refunded.
  for (const r of await q(
    `SELECT DISTINCT t.ticket_no, o.order_no, rf.status FROM checkins c JOIN tickets t ON t.id = c.ticket_id
       JOIN orders o ON o.id = t.order_id JOIN refund_items ri ON ri.order_item_id = t.order_item_id
       JOIN refunds rf ON rf.id = ri.refund_id AND rf.kind = 'order'
      WHERE rf.status <> ?`,
    [REFUND_STATUS.CLOSED],
  ))
    bad.push(
      `ticket ${r.ticket_no} was checked in, yet order ${r.order_no} has a refund in state ${r.status}`,
    );
}

/** Every fen the simulator took ends as tickets, a refund, or an operator's case. */
async function auditMoney(stack, q, bad) {
  const m = {
    orders: 0,
    paid_fen: 0,
    ticketed_fen: 0,
    refunded_fen: 0,
    open_fen: 0,
    foreign: 0,
    foreign_fen: 0,
  };
  const simRefunds = new Map();
  for (const rf of stack.sim.refunds()) {
    const list = simRefunds.get(rf.out_trade_no) ?? [];
    list.push(rf);
    simRefunds.set(rf.out_trade_no, list);
  }
  const [{ n }] = await q('SELECT COUNT(*) n FROM orders');
  m.orders = Number(n);
  // Orders linked by exchanges (改签) share their tickets' value: they balance as one family.
  const families = await exchangeFamilies(q);
  const familyMoney = new Map();
  for (const o of stack.sim.orders()) {
    if (o.trade_state !== 'SUCCESS' && o.trade_state !== 'REFUND') continue;
    const total = o.amount.total;
    m.paid_fen += total;
    const [pay] = await q(
      `SELECT p.id, p.currency, o.status, o.quantity, o.order_no, o.id order_id FROM payments p
         JOIN orders o ON o.id = p.order_id WHERE p.transaction_id = ?`,
      [o.transaction_id],
    );
    if (!pay) {
      bad.push(`WeChat took ${total} fen for ${o.out_trade_no} (${o.transaction_id}): no payment recorded`);
      continue;
    }
    const refunds = simRefunds.get(o.out_trade_no) ?? [];
    const ours = await q('SELECT out_refund_no, status, fee_fen, kind FROM refunds WHERE payment_id = ?', [
      pay.id,
    ]);
    const { refunded, operator } = await tradeRefunds(q, refunds, ours, bad);
    for (const x of ours)
      if (x.status === REFUND_STATUS.REQUESTED || x.status === REFUND_STATUS.PROCESSING)
        bad.push(`refund ${x.out_refund_no} of order ${pay.order_no} still open (state ${x.status})`);
    // Money in another currency never pays an order: it must end refunded (or with an operator
    // case, counted above); the accounting check below then finds it whole.
    if (pay.currency !== 'CNY') {
      m.foreign++;
      m.foreign_fen += refunded;
    }
    if (pay.currency !== 'CNY' && refunded + operator < total)
      bad.push(`order ${pay.order_no}: ${total} ${pay.currency} taken, ${refunded} refunded`);
    const family = families.get(String(pay.order_id));
    if (family) {
      const f = familyMoney.get(family) ?? { took: 0, refunded: 0, operator: 0 };
      f.took += total;
      f.refunded += refunded;
      f.operator += operator;
      familyMoney.set(family, f);
      continue;
    }
    const { t, owed } = await ticketsOf(q, pay.order_id, pay.quantity);
    const ticketed = pay.status === ORDER_STATUS.TICKETED && t === owed && refunded + operator < total;
    if (ticketed) m.ticketed_fen += total - refunded - operator;
    m.refunded_fen += refunded;
    m.open_fen += operator;
    const accounted = (ticketed ? total - refunded - operator : 0) + refunded + operator;
    if (accounted !== total)
      bad.push(
        `order ${pay.order_no} (status ${pay.status}, ${t}/${pay.quantity} tickets): WeChat took ${total} fen, ` +
          `${refunded} refunded, ${operator} with an operator, ${ticketed ? 'ticketed' : 'no tickets'}`,
      );
  }
  await familyBalance(q, families, familyMoney, m, bad);
  for (const r of await q(
    `SELECT o.order_no FROM orders o WHERE o.status = ? AND NOT EXISTS (SELECT 1 FROM refunds rf WHERE rf.order_id = o.id AND rf.status <> ?)`,
    [ORDER_STATUS.PAID, REFUND_STATUS.CLOSED],
  ))
    bad.push(`order ${r.order_no} is PAID after the heal window, without tickets or a refund`);
  return m;
}

/**
 * What WeChat refunded of one trade (fees kept included), and what is with an operator. A fee
 * given back (kind 'fee', a cancelled session's) was counted already as its refund's fee kept: a
 * success moves nothing, one with an operator moves it from refunded to the operator.
 */
async function tradeRefunds(q, refunds, ours, bad) {
  let refunded = 0;
  let operator = 0;
  for (const rf of refunds) {
    const mine = ours.find((x) => x.out_refund_no === rf.out_refund_no);
    if (mine?.kind === 'fee') {
      if (rf.status === 'ABNORMAL') {
        refunded -= rf.amount.refund;
        operator += rf.amount.refund;
      }
      if (rf.status === 'PROCESSING') bad.push(`refund ${rf.out_refund_no} still PROCESSING at WeChat`);
      continue;
    }
    if (rf.status === 'SUCCESS') refunded += rf.amount.refund + (mine?.fee_fen ?? 0);
    else if (rf.status === 'PROCESSING') bad.push(`refund ${rf.out_refund_no} still PROCESSING at WeChat`);
    else if (rf.status === 'ABNORMAL') {
      const [c] = await q(
        'SELECT state FROM refund_cases rc JOIN refunds r ON r.id = rc.refund_id WHERE r.out_refund_no = ?',
        [rf.out_refund_no],
      );
      if (c) operator += rf.amount.refund + (mine?.fee_fen ?? 0);
      else bad.push(`refund ${rf.out_refund_no} ABNORMAL at WeChat without an operator case`);
    }
    if (!mine) bad.push(`WeChat has refund ${rf.out_refund_no} that MySQL does not know`);
  }
  return { refunded, operator };
}

/**
 * Transfers (issue 16): an order item has at most one live ticket (the giver's or the
 * receiver's), a ticket handed on (or on offer) was never admitted, and no money moved: the
 * giver got nothing back for a transferred ticket (only a session cancel refunds it), the
 * receivers (fans who never buy in this run) own no order.
 */
async function auditTransfers(q, bad) {
  for (const r of await q(
    'SELECT order_item_id, COUNT(*) n FROM tickets WHERE status IN (?) GROUP BY order_item_id HAVING n > 1',
    [TICKET_LIVE],
  ))
    bad.push(`order item ${r.order_item_id} has ${r.n} live tickets`);
  for (const r of await q(
    'SELECT t.ticket_no, t.status FROM checkins c JOIN tickets t ON t.id = c.ticket_id WHERE t.status IN (?)',
    [[TICKET_STATUS.TRANSFERRED, TICKET_STATUS.TRANSFERRING, TICKET_STATUS.EXCHANGED]],
  ))
    bad.push(
      `ticket ${r.ticket_no} was admitted, yet it was handed on, offered or exchanged (status ${r.status})`,
    );
  for (const r of await q(
    `SELECT DISTINCT tr.id, o.order_no, rf.out_refund_no, rf.status FROM ticket_transfers tr
       JOIN orders o ON o.id = tr.order_id
       JOIN refund_items ri ON ri.order_item_id = tr.order_item_id JOIN refunds rf ON rf.id = ri.refund_id
      WHERE tr.state = 'accepted' AND rf.status <> ?
        AND NOT EXISTS (SELECT 1 FROM session_changes sc WHERE sc.session_id = tr.session_id AND sc.kind = 'cancel')`,
    [REFUND_STATUS.CLOSED],
  ))
    bad.push(
      `transfer ${r.id} of order ${r.order_no}: the given ticket has refund ${r.out_refund_no} (state ${r.status})`,
    );
  for (const r of await q(
    `SELECT DISTINCT o.order_no FROM ticket_transfers tr JOIN orders o ON o.user_id = tr.receiver_user_id
      WHERE tr.state = 'accepted'`,
  ))
    bad.push(`order ${r.order_no} belongs to a transfer's receiver: money moved for a transfer`);
  const [{ n }] = await q("SELECT COUNT(*) n FROM ticket_transfers WHERE state = 'accepted'");
  return { transfers: Number(n) };
}

async function auditDeadLetters(stack, q, bad) {
  const conn = await amqp.connect(stack.config.amqpUrl);
  try {
    const ch = await conn.createChannel();
    for (const name of Object.keys(QUEUES)) {
      const dead = `${stack.config.amqpPrefix}.${name}.dead`;
      const { messageCount } = await ch.checkQueue(dead);
      if (messageCount) bad.push(`dead-letter queue ${dead} holds ${messageCount} messages`);
    }
  } finally {
    await conn.close();
  }
  for (const r of await q("SELECT queue, COUNT(*) n FROM dead_letters WHERE state = 'parked' GROUP BY queue"))
    bad.push(`${r.n} dead letters of ${r.queue} parked for an operator`);
}

/**
 * An order's live tickets (a transferred item counts once: the receiver's ticket), and how many
 * it owes: its quantity less the tickets per-ticket refunds voided (their price is counted as
 * refunded, fee included).
 */
async function ticketsOf(q, orderId, quantity) {
  const [{ t }] = await q('SELECT COUNT(*) t FROM tickets WHERE order_id = ? AND status IN (?)', [
    orderId,
    TICKET_LIVE,
  ]);
  const [{ gone }] = await q(
    `SELECT COUNT(*) gone FROM refund_items ri JOIN refunds r ON r.id = ri.refund_id
      WHERE ri.order_id = ? AND r.status = ?`,
    [orderId, REFUND_STATUS.SUCCESS],
  );
  return { t: Number(t), owed: quantity - Number(gone) };
}

/** Redis says exactly what MySQL says about the session's units (the gate agrees with the record). */
async function auditRedis(stack, q, session, bad) {
  const { redis, keys, inventory } = stack.deps;
  const k = keys.session(session.id);
  // A session that sells nothing any more (cancelled) is not rebuilt by the lifecycle job when
  // Redis loses it after the cancel: nothing asks for it. Ask now, as any caller would, and
  // check that what is rebuilt from MySQL agrees (Redis can always be rebuilt from the record).
  if (!(await redis.exists(k.meta))) {
    const [row] = await q('SELECT status FROM show_sessions WHERE id = ?', [session.id]);
    if (![SESSION_STATUS.ON_SALE, SESSION_STATUS.SOLD_OUT].includes(Number(row.status)))
      await inventory.rebuild(session.id);
  }
  const items = await q(
    `SELECT i.order_id, i.seat_id, i.zone_id, o.user_id, o.status FROM order_items i JOIN orders o ON o.id = i.order_id
      WHERE o.session_id = ? AND o.status IN (?) AND ${ITEM_LIVE}`,
    [session.id, LIVE],
  );
  const seatOwner = new Map();
  const userUnits = new Map();
  let zoneLive = 0;
  for (const it of items) {
    userUnits.set(String(it.user_id), (userUnits.get(String(it.user_id)) ?? 0) + 1);
    if (it.seat_id) seatOwner.set(String(it.seat_id), { order: String(it.order_id), status: it.status });
    else zoneLive++;
  }
  const seats = await redis.hgetall(k.seats);
  const now = Date.now();
  for (const seatId of session.seatIds) {
    const v = seats[seatId];
    const owner = seatOwner.get(seatId);
    const state = v === undefined ? 'free' : seatValue.stateAt(v, now);
    if (!owner) {
      if (state === 'sold' || state === 'held')
        bad.push(`redis: seat ${seatId} ${state} (${v}) but free in MySQL`);
      continue;
    }
    const want = owner.status === ORDER_STATUS.PENDING ? `H|${owner.order}|` : `S|${owner.order}`;
    if (!v || !v.startsWith(want)) bad.push(`redis: seat ${seatId} is ${v ?? 'free'}, MySQL says ${want}`);
  }
  const free = await redis.zcount(k.zslots, session.zoneId, session.zoneId);
  if (free + zoneLive !== session.zoneCapacity)
    bad.push(`redis: zone free ${free} + live ${zoneLive} != capacity ${session.zoneCapacity}`);
  const users = await redis.hgetall(k.users);
  for (const [user, n] of userUnits)
    if (Number(users[user] ?? 0) !== n)
      bad.push(`redis: user ${user} counted ${users[user] ?? 0}, live ${n}`);
  for (const [user, n] of Object.entries(users))
    if (!userUnits.has(user) && Number(n) !== 0) bad.push(`redis: user ${user} counted ${n}, live 0`);
  const avail = Number(await redis.hget(k.meta, 'avail'));
  const claimed = seatOwner.size + zoneLive;
  if (avail !== session.capacity - claimed)
    bad.push(`redis: avail ${avail} != capacity ${session.capacity} - claimed ${claimed}`);
}

/**
 * The trade bills (payments and refunds) of every Beijing day the run touched against our record:
 * no difference, nothing recovered (a payment the system missed is a difference too).
 */
export async function auditReconciliation(stack, startedAt) {
  const now = new Date();
  const bad = [];
  for (const day of new Set([beijingDate(startedAt), beijingDate(now)])) {
    await stack.deps.db.query('DELETE FROM reconciliations WHERE bill_date = ?', [day]);
    const report = await stack.deps.reconciler.reconcile(day, now);
    if (!report) bad.push(`reconciliation of ${day} did not run`);
    else {
      for (const u of report.unmatched) bad.push(`reconciliation ${day}: ${u}`);
      if (report.recovered)
        bad.push(`reconciliation ${day} recovered ${report.recovered} payments the system had missed`);
    }
  }
  return bad;
}

/** Refunds by kind and outcome, for the run's summary. */
async function refundCounts(q) {
  const names = ['requested', 'processing', 'succeeded', 'abnormal', 'closed'];
  const out = {};
  for (const r of await q('SELECT kind, status, COUNT(*) n FROM refunds GROUP BY kind, status'))
    out[`${r.kind}:${names[r.status] ?? r.status}`] = Number(r.n);
  return out;
}
