import { seatLabel as sharedSeatLabel, type AdminOrderRow } from '@showtix/shared-types';
import { ORDER_STATUS_NAME } from '../types';
import type { AdminOrderListing } from './repo';

/** oAbc********wxyz: enough to tell buyers apart, not enough to reuse. */
export function maskOpenid(openid: string | null): string {
  if (!openid) return '';
  return openid.length <= 8
    ? '*'.repeat(openid.length)
    : `${openid.slice(0, 4)}${'*'.repeat(openid.length - 8)}${openid.slice(-4)}`;
}

/** An order row for the list; attendees come already masked (see attendees.ts). */
export function orderRowView(
  r: AdminOrderListing,
  attendees: AdminOrderRow['attendees'] = [],
): AdminOrderRow {
  return {
    orderNo: r.orderNo,
    status: ORDER_STATUS_NAME[r.status]!,
    amountFen: r.amountFen,
    quantity: r.quantity,
    createdAt: r.createdAt.toISOString(),
    paidAt: r.paidAt ? r.paidAt.toISOString() : null,
    buyer: {
      userId: String(r.userId),
      nickname: r.nickname ?? null,
      openidMasked: maskOpenid(r.openid ?? null),
    },
    showTitle: r.title,
    sessionId: String(r.sessionId),
    sessionStartsAt: r.startsAt.toISOString(),
    contactPhone: r.contactPhoneMasked ?? null,
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
  rowLabel: string | null;
  seatNumber: string | null;
  zoneName: string | null;
  slotNo: number | null;
}

export function seatLabel(r: UnitColumns): string {
  if (r.section) return sharedSeatLabel({ section: r.section, row: r.rowLabel!, number: r.seatNumber! });
  return r.zoneName ? `${r.zoneName}${r.slotNo ? ` #${r.slotNo}` : ''}` : '';
}
