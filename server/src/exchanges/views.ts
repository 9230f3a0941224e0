import type { Exchange, ExchangeStatus } from '@showtix/shared-types';
import { ORDER_STATUS } from '../lifecycle/statuses';
import { REFUND_STATUS_NAME } from '../refunds/repo';
import { EXCHANGE_STATUS, type ExchangeViewRow } from './repo';

/** A pending exchange whose order was cancelled (not paid in time) shows as cancelled. */
function statusOf(r: ExchangeViewRow): ExchangeStatus {
  if (r.status === EXCHANGE_STATUS.DONE) return 'done';
  if (r.status === EXCHANGE_STATUS.FAILED) return 'failed';
  return r.exchange_order_status === ORDER_STATUS.CANCELLED ? 'cancelled' : 'pending';
}

const list = (s: string | null): string[] => (s ? s.split(',') : []);

export function exchangeView(r: ExchangeViewRow): Exchange {
  const status = statusOf(r);
  return {
    exchangeId: String(r.id),
    status,
    originalOrderNo: r.original_order_no,
    orderNo: r.exchange_order_no,
    fromSessionId: String(r.from_session_id),
    toSessionId: String(r.to_session_id),
    oldFen: Number(r.old_fen),
    newFen: Number(r.new_fen),
    diffFen: Number(r.diff_fen),
    oldTicketIds: list(r.old_ticket_nos),
    newTicketIds: status === 'done' ? list(r.new_ticket_nos) : [],
    ...(r.refund_status !== null && r.refund_status !== undefined
      ? { refund: { status: REFUND_STATUS_NAME[r.refund_status]!, amountFen: Number(r.refund_fen) } }
      : {}),
    createdAt: r.created_at.toISOString(),
    ...(r.finished_at ? { finishedAt: r.finished_at.toISOString() } : {}),
  };
}
