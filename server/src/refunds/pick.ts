import { appError } from '../errors';
import type { RefundableItem } from './items-repo';

/**
 * What a refund request asks for, decided on the order's items read under its lock:
 * - `again`: the request was made before (the same tickets, all in one live refund; or a whole-order
 *   request with nothing left to refund): answer that refund, refund nothing twice;
 * - `items`: a new refund of these items.
 * ticketNos: the tickets chosen (a per-ticket refund); undefined: every item not refunded yet.
 */
export type Pick =
  { kind: 'again'; refundId: string | undefined } | { kind: 'items'; items: RefundableItem[] };

export function pickItems(all: RefundableItem[], ticketNos: string[] | undefined): Pick {
  if (ticketNos === undefined) {
    const left = all.filter((i) => i.live_refund_id === null);
    if (left.length > 0) return { kind: 'items', items: left };
    // Everything is refunded or being refunded: the latest refund is the answer.
    const ids = all.map((i) => Number(i.live_refund_id));
    return { kind: 'again', refundId: ids.length ? String(Math.max(...ids)) : undefined };
  }
  const byNo = new Map(all.filter((i) => i.ticket_no !== null).map((i) => [i.ticket_no!, i]));
  const chosen = [...new Set(ticketNos)].map((no) => {
    const item = byNo.get(no);
    if (!item) throw appError('NOT_FOUND', { ticketId: no }, '该门票不属于此订单');
    return item;
  });
  const live = new Set(chosen.map((i) => i.live_refund_id));
  if (live.size === 1 && !live.has(null)) {
    const refundId = chosen[0]!.live_refund_id!;
    // The same tickets as a refund made before, and only those: the request retried.
    if (all.filter((i) => i.live_refund_id === refundId).length === chosen.length)
      return { kind: 'again', refundId };
  }
  const taken = chosen.find((i) => i.live_refund_id !== null);
  if (taken) throw appError('TICKET_ALREADY_REFUNDED', { ticketId: taken.ticket_no });
  return { kind: 'items', items: chosen.sort((a, b) => Number(a.id) - Number(b.id)) };
}
