import type { RowDataPacket } from 'mysql2/promise';
import { REFUND_STATUS } from '../src/lifecycle/statuses';
import { issueTickets } from '../src/tickets/service';
import { payEnvBehindProxy, type CountingProxy } from './helpers/counting-proxy';
import { createSession } from './helpers/fixtures';
import { FREE_REFUNDS, paidOrder, type PayEnv } from './helpers/pay-env';
import { adminRefund } from './helpers/refund-steps';

/**
 * The refund check (refunds WeChat accepted but never reported on) after a cancelled session:
 * thousands of refunds at once, and if their notifications are lost only the check settles them.
 * Until 2026-12-06 it asked one at a time, and one query that failed ended the run with the rest
 * of its page unasked. WeChat Pay is reached through a counting HTTP proxy.
 */
let p: PayEnv;
let proxy: CountingProxy;
let close: () => Promise<void>;
beforeAll(async () => ({ p, proxy, close } = await payEnvBehindProxy({ consumers: false })));
afterAll(() => close());

const statuses = async (ids: string[]) =>
  (await p.deps.db.query<RowDataPacket[]>('SELECT status FROM refunds WHERE id IN (?)', [ids]))[0].map(
    (r) => r.status as number,
  );

it('asks about a page side by side, and a failed query does not stop the others', async () => {
  const s = await createSession(p.deps, { seats: 12, refundRules: FREE_REFUNDS });
  // Twelve paid orders refunded by an operator; WeChat refunds them but its notifications are lost.
  const paid = [];
  for (let i = 0; i < 12; i++) {
    const o = await paidOrder(p, `openid-refund-check-${i}`, {
      sessionId: s.sessionId,
      seatIds: [s.seatIds[i]!],
    });
    await issueTickets(p.deps, o.orderId, p.clock.now());
    paid.push(o.orderId);
  }
  p.sim.setFaults({ drop: true });
  const refunds: string[] = [];
  for (const orderId of paid) {
    const r = await adminRefund(p, orderId);
    await p.deps.refunds.execute(r.id, p.clock.now());
    refunds.push(r.id);
  }
  await p.until(
    async () => p.sim.refunds().filter((x) => x.status === 'SUCCESS').length >= 12,
    'refunded at WeChat',
  );
  expect(await statuses(refunds)).toEqual(Array(12).fill(REFUND_STATUS.PROCESSING));
  // WeChat answers slowly, and its first answer is an error.
  p.sim.setFaults({ drop: false, apiDelayMs: 100, failNextRequests: 1 });
  proxy.maxInFlight = 0;
  const later = new Date(p.clock.now().getTime() + 10 * 60_000);
  expect(await p.deps.refunds.checkProcessing(later, 0)).toBe(11);
  expect(proxy.maxInFlight).toBeGreaterThan(1);
  // The one whose query failed is asked again on the next run.
  expect(await p.deps.refunds.checkProcessing(later, 0)).toBe(1);
  p.sim.resetFaults();
  expect(await statuses(refunds)).toEqual(Array(12).fill(REFUND_STATUS.SUCCESS));
});
