import type { Order, OrderItem, OrderRefund } from '@showtix/shared-types';

const REFUND_STATUS_NAMES = ['requested', 'processing', 'succeeded', 'abnormal', 'closed'] as const;
import type { SessionCatalog } from '../catalog/types';
import { TICKET_STATUS } from '../lifecycle/statuses';
import type { ItemRow } from './repo';
import { ORDER_STATUS_NAME, type NewOrder, type OrderRecord, type RefundSummary } from './types';

export function itemView(r: ItemRow): OrderItem {
  const attendee = {
    ...(r.attendee_name ? { attendee: { name: r.attendee_name, idMasked: r.attendee_id_masked ?? '' } } : {}),
    ...(r.ticket_no ? { ticketId: r.ticket_no } : {}),
    ...(r.refund_status !== null && r.refund_status !== undefined
      ? { refundStatus: REFUND_STATUS_NAMES[r.refund_status]! }
      : {}),
    ...(r.ticket_status === TICKET_STATUS.TRANSFERRED ? { transferred: true } : {}),
    ...(r.ticket_status === TICKET_STATUS.TRANSFERRING ? { transferring: true } : {}),
    ...(r.ticket_status === TICKET_STATUS.EXCHANGED ? { exchanged: true } : {}),
  };
  if (r.seat_id) {
    return {
      seatId: r.seat_id,
      tierId: r.tier_id,
      priceFen: r.price_fen,
      section: r.section ?? '',
      row: r.row_label ?? '',
      number: r.seat_number ?? '',
      ...attendee,
    };
  }
  return {
    zoneId: r.zone_id!,
    tierId: r.tier_id,
    priceFen: r.price_fen,
    zoneName: r.zone_name ?? '',
    ...attendee,
  };
}

function refundView(refund: RefundSummary): OrderRefund {
  return {
    status: REFUND_STATUS_NAMES[refund.status]!,
    amountFen: refund.amount_fen,
    feeFen: refund.fee_fen,
    requestedAt: refund.created_at.toISOString(),
    ...(refund.finished_at ? { finishedAt: refund.finished_at.toISOString() } : {}),
  };
}

/** refunds: the order's refunds, oldest first; `refund` shows the latest, `refunds` all. */
export function orderView(
  o: OrderRecord,
  items: ItemRow[],
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
