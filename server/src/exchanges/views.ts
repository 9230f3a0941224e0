import type { Exchange, ExchangeStatus } from '@showtix/shared-types';
import { ORDER_STATUS } from '../lifecycle/statuses';
import { REFUND_STATUS_NAME } from '../refunds/repo';
import { EXCHANGE_STATUS, type ExchangeViewRecord } from './repo';

/** A pending exchange whose order was cancelled (not paid in time) shows as cancelled. */
function statusOf(r: ExchangeViewRecord): ExchangeStatus {
  if (r.status === EXCHANGE_STATUS.DONE) return 'done';
  if (r.status === EXCHANGE_STATUS.FAILED) return 'failed';
  return r.exchangeOrderStatus === ORDER_STATUS.CANCELLED ? 'cancelled' : 'pending';
}

const list = (s: string | null): string[] => (s ? s.split(',') : []);

export function exchangeView(r: ExchangeViewRecord): Exchange {
  const status = statusOf(r);
  return {
    exchangeId: String(r.id),
    status,
    originalOrderNo: r.originalOrderNo,
    orderNo: r.exchangeOrderNo,
    fromSessionId: String(r.fromSessionId),
    toSessionId: String(r.toSessionId),
    oldFen: Number(r.oldFen),
    newFen: Number(r.newFen),
    diffFen: Number(r.diffFen),
    oldTicketIds: list(r.oldTicketNos),
    newTicketIds: status === 'done' ? list(r.newTicketNos) : [],
    ...(r.refundStatus !== null && r.refundStatus !== undefined
      ? { refund: { status: REFUND_STATUS_NAME[r.refundStatus]!, amountFen: Number(r.refundFen) } }
      : {}),
    createdAt: r.createdAt.toISOString(),
    ...(r.finishedAt ? { finishedAt: r.finishedAt.toISOString() } : {}),
  };
}
