import { seatLabel as sharedSeatLabel, type AdminOrderRow } from '@showtix/shared-types';
import { ORDER_STATUS_NAME } from '../types';
import type { AdminOrderListRow } from './repo';

/** oAbc********wxyz: enough to tell buyers apart, not enough to reuse. */
export function maskOpenid(openid: string | null): string {
  if (!openid) return '';
  return openid.length <= 8
    ? '*'.repeat(openid.length)
    : `${openid.slice(0, 4)}${'*'.repeat(openid.length - 8)}${openid.slice(-4)}`;
}

/** An order row for the list; attendees come already masked (see attendees.ts). */
export function orderRowView(
  r: AdminOrderListRow,
  attendees: AdminOrderRow['attendees'] = [],
): AdminOrderRow {
  return {
    orderNo: r.order_no,
    status: ORDER_STATUS_NAME[r.status]!,
    amountFen: r.amount_fen,
    quantity: r.quantity,
    createdAt: r.created_at.toISOString(),
    paidAt: r.paid_at ? r.paid_at.toISOString() : null,
    buyer: {
      userId: String(r.user_id),
      nickname: r.nickname ?? null,
      openidMasked: maskOpenid(r.openid ?? null),
    },
    showTitle: r.title,
    sessionId: String(r.session_id),
    sessionStartsAt: r.starts_at.toISOString(),
    contactPhone: r.contact_phone_masked ?? null,
    attendees,
    channel: r.channel === 'comp' ? 'comp' : 'miniprogram',
  };
}

export const PAYMENT_STATUS: Record<number, string> = { 1: '已支付', 2: '部分退款', 3: '已全额退款' };
export const TICKET_STATUS: Record<number, string> = {
  1: '有效',
  2: '已作废',
  3: '退票中',
  4: '已转赠',
  5: '转赠中',
  6: '已改签',
};
export const REFUND_STATUS: Record<number, string> = {
  0: '已申请',
  1: '退款中',
  2: '退款成功',
  3: '退款异常',
  4: '已关闭',
};

/** A seat's or a zone unit's columns (an order item's, a ticket's). */
interface UnitColumns {
  section: string | null;
  row_label: string | null;
  seat_number: string | null;
  zone_name: string | null;
  slot_no: number | null;
}

export function seatLabel(r: UnitColumns): string {
  if (r.section) return sharedSeatLabel({ section: r.section, row: r.row_label!, number: r.seat_number! });
  return r.zone_name ? `${r.zone_name}${r.slot_no ? ` #${r.slot_no}` : ''}` : '';
}
