import type { RowDataPacket } from 'mysql2/promise';
import { payEnvBehindProxy, type CountingProxy } from './helpers/counting-proxy';
import { createSession } from './helpers/fixtures';
import { prepaidOrders, type PayEnv } from './helpers/pay-env';

/**
 * The payment check (missing notifications: ask WeChat about payments started a while ago) in
 * an on-sale: thousands of payment sheets opened and abandoned stay pending until their hold
 * ends, each asked about again every 30 s. Until 2026-12-06 the check asked about 50 a run, one
 * at a time (~100 ms a query at WeChat: 10 a second), so a paid order whose notification was
 * lost waited behind them for minutes. Now a run asks about all that are due, side by side.
 *
 * WeChat Pay is reached through a counting HTTP proxy, so the test sees the calls in flight.
 */
let p: PayEnv;
let proxy: CountingProxy;
let close: () => Promise<void>;
beforeAll(async () => ({ p, proxy, close } = await payEnvBehindProxy()));
afterAll(() => close());

it('one run asks about every due payment side by side, and finds the paid ones behind the abandoned', async () => {
  const s = await createSession(p.deps, { seats: 70 });
  const orders = await prepaidOrders(p, s, 70, 'check');
  // Three fans paid, the last to open their sheets, and WeChat's notifications were lost.
  p.sim.setFaults({ drop: true });
  const paid = [60, 65, 69].map((i) => orders[i]!.orderNo);
  for (const i of [60, 65, 69]) p.sim.pay(orders[i]!.payParams);
  p.sim.setFaults({ drop: false, apiDelayMs: 100 });
  proxy.maxInFlight = 0;
  const later = new Date(p.clock.now().getTime() + 61_000);
  const applied = await p.deps.payments.checkPending(later, 60_000);
  p.sim.resetFaults();

  expect(applied).toBe(3);
  // One at a time until now.
  expect(proxy.maxInFlight).toBeGreaterThan(1);
  const [rows] = await p.deps.db.query<RowDataPacket[]>(
    'SELECT order_no, status, pay_checked_at FROM orders WHERE session_id = ?',
    [s.sessionId],
  );
  expect(rows.filter((r) => r.pay_checked_at === null)).toEqual([]);
  expect(
    rows
      .filter((r) => r.status !== 1)
      .map((r) => r.order_no)
      .sort(),
  ).toEqual([...paid].sort());
  // Asked about again only after 30 s.
  expect(await p.deps.payments.checkPending(new Date(later.getTime() + 1_000), 60_000)).toBe(0);
  expect(proxy.inFlight).toBe(0);
});
