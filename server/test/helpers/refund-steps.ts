import type { RowDataPacket } from 'mysql2/promise';
import { REFUND_STATUS } from '../../src/lifecycle/statuses';
import { issueTickets } from '../../src/tickets/service';
import type { PayEnv } from './pay-env';

/** An operator (admin 1) asks for a refund of the order, of these tickets only if given. */
export function adminRefund(p: PayEnv, orderId: string, ticketIds?: string[]) {
  const by = { kind: 'admin' as const, id: '1' };
  return p.deps.refunds.refundOrder({ orderId, by, now: p.clock.now(), ...(ticketIds ? { ticketIds } : {}) });
}

/** The refund numbers WeChat (the simulator) was sent for that order, in the order they came. */
export const refundNosAtWechat = (p: PayEnv, orderNo: string) =>
  p.sim
    .refunds()
    .filter((x) => x.out_trade_no === orderNo)
    .map((x) => x.out_refund_no);

/**
 * The paid order ticketed, then an operator's refund of it that WeChat answers ABNORMAL (the
 * fan's card cannot take it); answers once the refund reads ABNORMAL. The simulator keeps that
 * fault until the caller resets it.
 */
export async function abnormalRefund(p: PayEnv, orderId: string) {
  await issueTickets(p.deps, orderId, p.clock.now());
  p.sim.setFaults({ refundOutcome: 'ABNORMAL' });
  const refund = await adminRefund(p, orderId);
  await p.deps.refunds.execute(refund.id, p.clock.now());
  await p.until(async () => {
    const [[row]] = await p.deps.db.query<RowDataPacket[]>('SELECT status FROM refunds WHERE id = ?', [
      refund.id,
    ]);
    return row?.status === REFUND_STATUS.ABNORMAL;
  }, 'the refund to be ABNORMAL');
  return refund;
}
