import type { Order, OrderItem } from '@showtix/shared-types';
import type { SessionCatalog } from '../catalog/types';
import type { ItemRow } from './repo';
import { ORDER_STATUS_NAME, type NewOrder, type OrderRow, type RefundSummary } from './types';

export function itemView(r: ItemRow): OrderItem {
  const attendee = r.attendee_name
    ? { attendee: { name: r.attendee_name, idMasked: r.attendee_id_masked ?? '' } }
    : {};
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

const REFUND_STATUS_NAMES = ['requested', 'processing', 'succeeded', 'abnormal', 'closed'] as const;

export function orderView(o: OrderRow, items: ItemRow[], refund?: RefundSummary): Order {
  return {
    orderNo: o.order_no,
    status: ORDER_STATUS_NAME[o.status]!,
    sessionId: o.session_id,
    amountFen: o.amount_fen,
    expireAt: o.expire_at.toISOString(),
    createdAt: o.created_at.toISOString(),
    items: items.map(itemView),
    ...(o.cancel_reason ? { cancelReason: o.cancel_reason } : {}),
    ...(o.contact_phone_masked ? { contactPhone: o.contact_phone_masked } : {}),
    ...(refund
      ? {
          refund: {
            status: REFUND_STATUS_NAMES[refund.status]!,
            amountFen: refund.amount_fen,
            feeFen: refund.fee_fen,
            requestedAt: refund.created_at.toISOString(),
            ...(refund.finished_at ? { finishedAt: refund.finished_at.toISOString() } : {}),
          },
        }
      : {}),
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
