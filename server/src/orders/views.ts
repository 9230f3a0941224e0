import type { Order, OrderItem, OrderRefund } from '@showtix/shared-types';

const REFUND_STATUS_NAMES = ['requested', 'processing', 'succeeded', 'abnormal', 'closed'] as const;
import type { SessionCatalog } from '../catalog/types';
import { TICKET_STATUS } from '../lifecycle/statuses';
import type { ItemRecord } from './repo';
import { ORDER_STATUS_NAME, type NewOrder, type OrderRecord, type RefundSummary } from './types';

export function itemView(r: ItemRecord): OrderItem {
  const attendee = {
    ...(r.attendeeName ? { attendee: { name: r.attendeeName, idMasked: r.attendeeIdMasked ?? '' } } : {}),
    ...(r.ticketNo ? { ticketId: r.ticketNo } : {}),
    ...(r.refundStatus !== null && r.refundStatus !== undefined
      ? { refundStatus: REFUND_STATUS_NAMES[r.refundStatus]! }
      : {}),
    ...(r.ticketStatus === TICKET_STATUS.TRANSFERRED ? { transferred: true } : {}),
    ...(r.ticketStatus === TICKET_STATUS.TRANSFERRING ? { transferring: true } : {}),
    ...(r.ticketStatus === TICKET_STATUS.EXCHANGED ? { exchanged: true } : {}),
  };
  if (r.seatId) {
    return {
      seatId: r.seatId,
      tierId: r.tierId,
      priceFen: r.priceFen,
      section: r.section ?? '',
      row: r.rowLabel ?? '',
      number: r.seatNumber ?? '',
      ...attendee,
    };
  }
  return {
    zoneId: r.zoneId!,
    tierId: r.tierId,
    priceFen: r.priceFen,
    zoneName: r.zoneName ?? '',
    ...attendee,
  };
}

function refundView(refund: RefundSummary): OrderRefund {
  return {
    status: REFUND_STATUS_NAMES[refund.status]!,
    amountFen: refund.amountFen,
    feeFen: refund.feeFen,
    requestedAt: refund.createdAt.toISOString(),
    ...(refund.finishedAt ? { finishedAt: refund.finishedAt.toISOString() } : {}),
  };
}

/** refunds: the order's refunds, oldest first; `refund` shows the latest, `refunds` all. */
export function orderView(
  o: OrderRecord,
  items: ItemRecord[],
  refunds: RefundSummary[] = [],
  exchangedFrom?: string,
): Order {
  const latest = refunds[refunds.length - 1];
  return {
    orderNo: o.orderNo,
    status: ORDER_STATUS_NAME[o.status]!,
    sessionId: o.sessionId,
    amountFen: o.amountFen,
    expireAt: o.expireAt.toISOString(),
    createdAt: o.createdAt.toISOString(),
    items: items.map(itemView),
    ...(o.cancelReason ? { cancelReason: o.cancelReason } : {}),
    ...(o.contactPhoneMasked ? { contactPhone: o.contactPhoneMasked } : {}),
    ...(latest ? { refund: refundView(latest), refunds: refunds.map(refundView) } : {}),
    ...(exchangedFrom ? { exchangedFrom } : {}),
  };
}

/** The view of an order just written, built from the catalog without reading it back. */
export function newOrderView(o: NewOrder, cat: SessionCatalog): Order {
  return {
    orderNo: o.orderNo,
    status: 'pending',
    sessionId: o.sessionId,
    amountFen: o.amountFen,
    expireAt: o.expireAt.toISOString(),
    createdAt: o.createdAt.toISOString(),
    ...(o.contactPhone ? { contactPhone: o.contactPhone.masked } : {}),
    items: o.items.map((i): OrderItem => {
      if (i.seatId) {
        const s = cat.seats.get(i.seatId)!;
        return {
          seatId: i.seatId,
          tierId: i.tierId,
          priceFen: i.priceFen,
          section: s.section,
          row: s.row,
          number: s.number,
        };
      }
      return {
        zoneId: i.zoneId!,
        tierId: i.tierId,
        priceFen: i.priceFen,
        zoneName: cat.zones.get(i.zoneId!)!.name,
      };
    }),
  };
}
