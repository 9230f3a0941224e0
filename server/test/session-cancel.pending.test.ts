import type { RowDataPacket } from 'mysql2/promise';
import type { Actor } from '../src/http/admin/http';
import { ORDER_STATUS } from '../src/lifecycle/statuses';
import { sessionChangesOf } from '../src/per-app';
import { audit } from './helpers/auditor';
import { payEnvBehindProxy, type CountingProxy } from './helpers/counting-proxy';
import { createSession } from './helpers/fixtures';
import { FREE_REFUNDS, prepaidOrders, type PayEnv } from './helpers/pay-env';

/**
 * A show called off mid on-sale: its pending orders, each with a payment sheet open at WeChat,
 * are cancelled by the cancellation run, each closing its WeChat order first. Until 2026-12-06
 * one at a time (~100 ms a close: a pass of ~10 s per 100 orders); now side by side. WeChat Pay
 * is reached through a counting HTTP proxy.
 */
let p: PayEnv;
let proxy: CountingProxy;
let close: () => Promise<void>;
beforeAll(async () => ({ p, proxy, close } = await payEnvBehindProxy()));
afterAll(() => close());

const who: Actor = { adminId: null as unknown as string, username: 'test-organiser', ip: '' };

it("a cancelled session's pending orders are closed at WeChat side by side and cancelled in one pass", async () => {
  const s = await createSession(p.deps, { seats: 20, refundRules: FREE_REFUNDS });
  const orders = await prepaidOrders(p, s, 20, 'called-off');
  const changes = sessionChangesOf(p.deps);
  await changes.cancel(who, s.sessionId, { reason: '场馆原因' }, p.clock.now());
  p.sim.setFaults({ apiDelayMs: 100 });
  proxy.maxInFlight = 0;
  await changes.run(p.clock.now());
  p.sim.resetFaults();

  // One at a time until now.
  expect(proxy.maxInFlight).toBeGreaterThan(1);
  const [rows] = await p.deps.db.query<RowDataPacket[]>(
    'SELECT order_no, status, cancel_reason FROM orders WHERE session_id = ?',
    [s.sessionId],
  );
  expect(rows.map((r) => [r.status, r.cancel_reason])).toEqual(
    Array(20).fill([ORDER_STATUS.CANCELLED, 'session_cancelled']),
  );
  for (const o of orders) expect(p.sim.order(o.orderNo)?.trade_state).toBe('CLOSED');
  expect((await changes.changes(s.sessionId)).items[0]!.pendingLeft).toBe(0);
  expect(await audit(p.deps, s.sessionId, p.clock.now().getTime())).toEqual([]);
});
