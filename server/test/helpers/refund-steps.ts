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
