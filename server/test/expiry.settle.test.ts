import type { RowDataPacket } from 'mysql2/promise';
import { ORDER_STATUS } from '../src/lifecycle/statuses';
import { expireDueOrders } from '../src/orders/expiry';
import { audit } from './helpers/auditor';
import { createSession } from './helpers/fixtures';
import { payEnvBehindProxy, type CountingProxy } from './helpers/counting-proxy';
import { prepaidOrders, type PayEnv } from './helpers/pay-env';

/**
 * The due orders whose payment started (the fan opened the payment sheet and walked away) are
 * settled at WeChat side by side, then the closed ones cancelled together. Until 2026-12-06 the
 * job closed them in lock-step groups of eight, each order through the whole cancel workflow:
 * at ~100 ms a WeChat call that is ~80 orders a second, and an on-sale's abandoned payment
 * sheets fall due faster than that; past HOLD_GRACE_MS Redis offered their seats while MySQL
 * still claimed them.
 *
 * WeChat Pay is reached through a counting HTTP proxy (real HTTP both ways), so the test sees how
 * many of the server's calls were in flight at once.
 */
let p: PayEnv;
let proxy: CountingProxy;
let close: () => Promise<void>;
beforeAll(async () => ({ p, proxy, close } = await payEnvBehindProxy()));
afterAll(() => close());

const expiryDeps = () => ({
  db: p.deps.db,
  orders: p.deps.orders,
  inventory: p.deps.inventory,
  log: p.deps.log,
  orphanGraceMs: 60_000,
});

const statusOf = async (sessionId: string) =>
  (
    await p.deps.db.query<RowDataPacket[]>(
      'SELECT order_no, status, cancel_reason FROM orders WHERE session_id = ? ORDER BY id',
      [sessionId],
    )
  )[0];

it('settles the due orders whose payment started side by side and cancels the closed ones', async () => {
  const s = await createSession(p.deps, { seats: 24 });
  const orders = await prepaidOrders(p, s, 24, 'settle');
  // One fan paid, but WeChat's notification never came: the close answers ORDERPAID, the query
  // finds the payment and the guard honours it. That order is not cancelled with the others.
  p.sim.setFaults({ drop: true });
  p.sim.pay(orders[5]!.payParams);
  await p.deps.db.query('UPDATE orders SET expire_at = ? WHERE session_id = ?', [
    new Date(p.clock.now().getTime() - 1),
    s.sessionId,
  ]);
  // WeChat answers slowly (~150 ms a call): the job's calls overlap instead of queueing.
  p.sim.setFaults({ drop: false, apiDelayMs: 150 });
  proxy.maxInFlight = 0;
  const cancelled = await expireDueOrders(expiryDeps(), p.clock.now());
  p.sim.resetFaults();

  expect(cancelled).toBe(23);
  // The old job: lock-step groups of eight, so never more than eight calls at once.
  expect(proxy.maxInFlight).toBeGreaterThan(8);
  const rows = await statusOf(s.sessionId);
  for (const [i, r] of rows.entries()) {
    const paid = i === 5;
    expect({ i, status: r.status, reason: r.cancel_reason }).toEqual({
      i,
      status: paid ? expect.any(Number) : ORDER_STATUS.CANCELLED,
      reason: paid ? null : 'expired',
    });
    const trade = p.sim.order(r.order_no);
    expect({ i, state: trade?.trade_state }).toEqual({ i, state: paid ? 'SUCCESS' : 'CLOSED' });
  }
  expect([ORDER_STATUS.PAID, ORDER_STATUS.TICKETED]).toContain(rows[5]!.status);
  // Every closed order's seat is back on sale, and Redis and MySQL agree.
  expect(await audit(p.deps, s.sessionId, p.clock.now().getTime())).toEqual([]);
  expect(await p.deps.inventory.availability(s.sessionId)).toBe(23);
});

it('leaves an order for the next run while WeChat cannot close it, and cancels it once it can', async () => {
  const s = await createSession(p.deps, { seats: 3 });
  await prepaidOrders(p, s, 3, 'settle-down');
  await p.deps.db.query('UPDATE orders SET expire_at = ? WHERE session_id = ?', [
    new Date(p.clock.now().getTime() - 1),
    s.sessionId,
  ]);
  // The first call of the run fails at WeChat: that order is asked again on the next run.
  p.sim.setFaults({ failNextRequests: 1 });
  expect(await expireDueOrders(expiryDeps(), p.clock.now())).toBe(2);
  const pending = (await statusOf(s.sessionId)).filter((r) => r.status === ORDER_STATUS.PENDING);
  expect(pending).toHaveLength(1);
  expect(p.sim.order(pending[0]!.order_no)?.trade_state).toBe('NOTPAY');
  expect(await expireDueOrders(expiryDeps(), p.clock.now())).toBe(1);
  expect((await statusOf(s.sessionId)).map((r) => r.status)).toEqual(Array(3).fill(ORDER_STATUS.CANCELLED));
  expect(await audit(p.deps, s.sessionId, p.clock.now().getTime())).toEqual([]);
});
