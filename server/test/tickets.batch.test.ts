import type { RowDataPacket } from 'mysql2/promise';
import type { Pending } from '../src/db/group-commit';
import { ORDER_STATUS, TICKET_STATUS } from '../src/lifecycle/statuses';
import { TicketIssuer, type Issue } from '../src/tickets/issuer';
import type { IssueOutcome } from '../src/tickets/service';
import { FREE_REFUNDS, paidOrder as paidOrderOf, payEnvWithSession, type PayEnv } from './helpers/pay-env';
import { createSession, type SessionFixture } from './helpers/fixtures';
import { pauseRefundAfterCheck } from './helpers/refund-pause';
import { countedPool } from './helpers/counted-pool';

/**
 * The tickets consumer's group commit (tickets/issuer.ts). Invariants as for one order alone:
 * every paid order gets exactly one ticket per item, none admissible while a refund of it is
 * open, an order delivered twice is issued once, and one order's failure is its own. Consumers
 * are off: each test runs the issuer itself.
 */
let p: PayEnv;
let s: SessionFixture;
let seat = 0;

beforeAll(async () => {
  ({ p, s } = await payEnvWithSession(60, { consumers: false }));
});
afterAll(() => p.close());
afterEach(() => jest.restoreAllMocks());

/** The issuer, noting the size of every batch it flushed. */
class CountingIssuer extends TicketIssuer {
  readonly batches: number[] = [];
  protected override flush(batch: Pending<Issue>[]) {
    this.batches.push(batch.length);
    return super.flush(batch);
  }

  /**
   * These deliveries as one batch, whatever the timing (issue() leaves the grouping to the
   * event loop): one flush, which reads the orders and confirms the paid ones in Redis first.
   * Per delivery, its outcome or the error it was rejected with.
   */
  async oneBatch(orderIds: string[], now: Date): Promise<(IssueOutcome | Error)[]> {
    const out: (IssueOutcome | Error)[] = [];
    const batch = orderIds.map((orderId, i) => {
      const item: Issue = { orderId, now, outcome: 'skipped' };
      return { item, resolve: () => (out[i] = item.outcome), reject: (e: Error) => (out[i] = e) };
    });
    await this.flush(batch);
    return out;
  }
}

/** A paid order (the notification applied) of the next n seats, its tickets not issued yet. */
async function paidOrder(openid: string, n = 1) {
  const body = { sessionId: s.sessionId, seatIds: s.seatIds.slice(seat, (seat += n)) };
  return { ...(await paidOrderOf(p, openid, body)), seats: n };
}

async function ticketStatuses(orderId: string): Promise<number[]> {
  const [rows] = await p.deps.db.query<RowDataPacket[]>(
    'SELECT status FROM tickets WHERE order_id = ? ORDER BY order_item_id',
    [orderId],
  );
  return rows.map((r) => Number(r.status));
}

async function orderStatus(orderId: string): Promise<number> {
  const [[row]] = await p.deps.db.query<RowDataPacket[]>('SELECT status FROM orders WHERE id = ?', [orderId]);
  return Number(row!.status);
}

/** The 'ticketed' notices enqueued for the order. */
async function ticketedNotices(orderId: string): Promise<number> {
  const [[row]] = await p.deps.db.query<RowDataPacket[]>(
    `SELECT COUNT(*) n FROM outbox WHERE topic = 'notice.send' AND aggregate_id = ?
      AND JSON_VALUE(payload, '$.template') = 'ticketed'`,
    [orderId],
  );
  return Number(row!.n);
}

const { VALID, REFUNDING } = TICKET_STATUS;
const { PAID, TICKETED } = ORDER_STATUS;

it('paid orders that arrive together share a transaction, each with its own tickets and notice', async () => {
  const orders = [];
  for (let i = 0; i < 8; i++) orders.push(await paidOrder(`openid-batch-${i}`, 1 + (i % 3)));
  const issuer = new CountingIssuer(p.deps, { batchOrdersMax: 20, batchInflightMax: 1 });
  const out = await Promise.all(orders.map((o) => issuer.issue(o.orderId, p.clock.now())));
  expect(out).toEqual(orders.map(() => 'issued'));
  // One order alone took one transaction each: eight.
  expect(issuer.batches.reduce((a, b) => a + b, 0)).toBe(8);
  expect(issuer.batches.length).toBeLessThanOrEqual(4);
  for (const o of orders) {
    expect(await ticketStatuses(o.orderId)).toEqual(Array(o.seats).fill(VALID));
    expect(await orderStatus(o.orderId)).toBe(TICKETED);
    expect(await ticketedNotices(o.orderId)).toBe(1);
  }
  // Delivered again (RabbitMQ redelivers): nothing more.
  expect(await issuer.issue(orders[0]!.orderId, p.clock.now())).toBe('skipped');
  expect(await ticketStatuses(orders[0]!.orderId)).toHaveLength(orders[0]!.seats);
});

it('reads the orders delivered together in one query; one not paid and one whose Redis confirmation failed are each their own', async () => {
  // c in a session of its own, whose Redis refuses its confirmation below.
  const s2 = await createSession(p.deps, { seats: 1, refundRules: FREE_REFUNDS });
  const [a, b, c, done] = [
    await paidOrder('openid-batch-read-a'),
    await paidOrder('openid-batch-read-b'),
    await paidOrderOf(p, 'openid-batch-read-c', { sessionId: s2.sessionId, seatIds: s2.seatIds }),
    await paidOrder('openid-batch-read-done'),
  ];
  expect(
    await new TicketIssuer(p.deps, { batchOrdersMax: 20, batchInflightMax: 1 }).issue(
      done!.orderId,
      p.clock.now(),
    ),
  ).toBe('issued');
  // The real pool with its calls counted. c's session's orders hash set aside and a string in
  // its place: the real Redis refuses c's confirmation (WRONGTYPE), and only c's.
  const { calls, db } = countedPool(p.deps.db);
  const ordersKey = p.deps.keys.session(s2.sessionId).orders;
  await p.deps.redis.rename(ordersKey, `${ordersKey}:aside`);
  await p.deps.redis.set(ordersKey, 'not a hash');
  const issuer = new TicketIssuer({ ...p.deps, db }, { batchOrdersMax: 20, batchInflightMax: 1 });
  const now = p.clock.now();
  const out = await Promise.allSettled(
    [a!.orderId, b!.orderId, c!.orderId, done!.orderId, '999999999'].map((id) => issuer.issue(id, now)),
  );
  expect(out.map((r) => (r.status === 'fulfilled' ? r.value : 'rejected'))).toEqual([
    'issued',
    'issued',
    'rejected',
    'skipped',
    'skipped',
  ]);
  expect(String((out[2] as PromiseRejectedResult).reason)).toMatch(/WRONGTYPE/);
  await p.deps.redis.del(ordersKey);
  await p.deps.redis.rename(`${ordersKey}:aside`, ordersKey);
  // One read for the five (alone, each delivery read its order), then one transaction.
  expect(calls).toEqual({ query: 1, getConnection: 1 });
  expect(await orderStatus(c!.orderId)).toBe(PAID);
  expect(await ticketStatuses(c!.orderId)).toEqual([]);
  // The consumer retries c's message: issued then.
  expect(
    await new TicketIssuer(p.deps, { batchOrdersMax: 20, batchInflightMax: 1 }).issue(c!.orderId, now),
  ).toBe('issued');
  expect(await ticketStatuses(done!.orderId)).toEqual([VALID]);
});

it('in one batch: a refund open before the lock makes its tickets REFUNDING; an order delivered twice is issued once', async () => {
  const refunded = await paidOrder('openid-batch-refund', 2);
  const twice = await paidOrder('openid-batch-twice', 2);
  const plain = await paidOrder('openid-batch-plain', 1);
  const r = await p.api.call('POST', `/api/v1/orders/${refunded.orderNo}/refund`, {
    token: refunded.fan.token,
    body: {},
  });
  expect(r.status).toBe(200);
  const issuer = new CountingIssuer(p.deps, { batchOrdersMax: 20, batchInflightMax: 1 });
  const ids = [refunded.orderId, twice.orderId, plain.orderId, twice.orderId];
  expect(await issuer.oneBatch(ids, p.clock.now())).toEqual(['issued', 'issued', 'issued', 'skipped']);
  expect(issuer.batches).toEqual([4]);
  expect(await ticketStatuses(refunded.orderId)).toEqual([REFUNDING, REFUNDING]);
  expect(await ticketStatuses(twice.orderId)).toEqual([VALID, VALID]);
  expect(await ticketStatuses(plain.orderId)).toEqual([VALID]);
  expect(await ticketedNotices(twice.orderId)).toBe(1);
});

it("a batch one order's tickets are refused in is retried order by order: that failure is its own", async () => {
  const orders = [];
  for (let i = 0; i < 4; i++) orders.push(await paidOrder(`openid-batch-fail-${i}`, 1));
  const bad = orders[2]!;
  // A live ticket already holds the bad order's item (the unique live-item key refuses another).
  await p.deps.db.query(
    `INSERT INTO tickets (ticket_no, order_id, order_item_id, user_id, session_id, seat_id, zone_id, slot_no, secret, status, created_at)
     SELECT 'TBATCHFAILTEST000000', i.order_id, i.id, o.user_id, o.session_id, i.seat_id, i.zone_id, i.slot_no, 'x', 1, UTC_TIMESTAMP()
       FROM order_items i JOIN orders o ON o.id = i.order_id WHERE i.order_id = ?`,
    [bad.orderId],
  );
  const issuer = new CountingIssuer(p.deps, { batchOrdersMax: 20, batchInflightMax: 1 });
  const out = await issuer.oneBatch(
    orders.map((o) => o.orderId),
    p.clock.now(),
  );
  expect(issuer.batches).toEqual([4]);
  expect(out.map((x) => (x instanceof Error ? 'rejected' : x))).toEqual([
    'issued',
    'issued',
    'rejected',
    'issued',
  ]);
  for (const o of orders) {
    if (o === bad) continue;
    expect(await ticketStatuses(o.orderId)).toEqual([VALID]);
    expect(await orderStatus(o.orderId)).toBe(TICKETED);
  }
  // The refused order changed nothing: still paid, no notice (the consumer retries it).
  expect(await orderStatus(bad.orderId)).toBe(PAID);
  expect(await ticketedNotices(bad.orderId)).toBe(0);
});

it('a batch that meets a refund in flight waits for its commit under the order lock, and issues no admissible ticket of it', async () => {
  const refunded = await paidOrder('openid-batch-race-refund', 2);
  const other = await paidOrder('openid-batch-race-other', 1);
  // The refund holds the order's lock, paused between its checks and its writes.
  const pause = pauseRefundAfterCheck();
  const refunding = p.api.call('POST', `/api/v1/orders/${refunded.orderNo}/refund`, {
    token: refunded.fan.token,
    body: {},
  });
  await pause.reached;
  const issuer = new CountingIssuer(p.deps, { batchOrdersMax: 20, batchInflightMax: 1 });
  let done = false;
  const issuing = Promise.all([refunded, other].map((o) => issuer.issue(o.orderId, p.clock.now()))).finally(
    () => (done = true),
  );
  await new Promise((r) => setTimeout(r, 300));
  // Invariant: no ticket of an order whose refund is being written: the batch waits on the lock.
  expect(done).toBe(false);
  expect(await ticketStatuses(refunded.orderId)).toEqual([]);
  pause.release();
  expect((await refunding).status).toBe(200);
  expect(await issuing).toEqual(['issued', 'issued']);
  expect(await ticketStatuses(refunded.orderId)).toEqual([REFUNDING, REFUNDING]);
  expect(await ticketStatuses(other.orderId)).toEqual([VALID]);
});
