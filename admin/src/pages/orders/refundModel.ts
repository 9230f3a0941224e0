import type { AdminOrderDetail } from '@showtix/shared-types';

export interface RefundFields {
  reason: string;
  ticketIds?: string[];
}

/** Tickets an operator may refund one by one: valid ones (refunding or voided ones are taken). */
export function refundableTickets(o: AdminOrderDetail | undefined) {
  return o?.tickets.filter((t) => t.status === '有效') ?? [];
}

/** A paid order has no tickets yet: it is refunded whole. A ticketed one, ticket by ticket. */
export function refundMode(o: AdminOrderDetail | undefined, refundableCount: number) {
  const perTicket = o?.status === 'ticketed' && refundableCount > 0;
  const canRefund =
    !!o && ((o.status === 'paid' && !o.refunds.some((r) => r.status !== '已关闭')) || perTicket);
  return { perTicket, canRefund };
}

export function refundDoneText(ticketIds: string[] | undefined) {
  return ticketIds
    ? `已提交 ${ticketIds.length} 张门票的退款，款项将原路退回`
    : '已提交全额退款，款项将原路退回';
}
