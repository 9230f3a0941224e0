import { hash } from 'node:crypto';
import { normalizeIdNumber, type CreateOrderInput } from '@showtix/shared-types';
import type { SealedAttendee, SealedPhone } from '../attendees/crypto';
import type { CatalogZone, SessionCatalog } from '../catalog/types';
import { appError } from '../errors';
import { orderNoFor } from './ids';
import type { NewOrder, NewOrderItem } from './types';

export type Units =
  { kind: 'seats'; seatIds: string[] } | { kind: 'zone'; zone: CatalogZone; quantity: number };

/** Checks the request against the session before anything is held. Prices never come from it. */
export function resolveUnits(cat: SessionCatalog, input: CreateOrderInput): Units {
  const quantity = 'seatIds' in input ? input.seatIds.length : input.quantity;
  if (quantity > cat.purchaseLimit) {
    throw appError(
      'LIMIT_EXCEEDED',
      { purchaseLimit: cat.purchaseLimit },
      `每人限购 ${cat.purchaseLimit} 张`,
    );
  }
  requireAttendees(cat, input.attendees, quantity);
  if ('seatIds' in input) {
    const unknown = input.seatIds.find((id) => !cat.seats.has(id));
    if (unknown) throw appError('VALIDATION_FAILED', { seatId: unknown }, '所选座位不属于本场次');
    return { kind: 'seats', seatIds: input.seatIds };
  }
  const zone = cat.zones.get(input.zoneId);
  if (!zone) throw appError('VALIDATION_FAILED', { zoneId: input.zoneId }, '所选区域不属于本场次');
  return { kind: 'zone', zone, quantity: input.quantity };
}

/**
 * A real-name session needs one attendee per unit, each a different ID document (the purchase
 * and the waiting list's join both ask this of the fan).
 */
export function requireAttendees(
  cat: Pick<SessionCatalog, 'realName'>,
  attendees: { idNumber: string }[] | undefined,
  quantity: number,
): void {
  if (cat.realName && (attendees?.length ?? 0) !== quantity) {
    throw appError('VALIDATION_FAILED', { field: 'attendees' }, '实名制场次需为每张票填写一位观演人');
  }
  // The number alone: the same document under another type is still the same person.
  const ids = new Set((attendees ?? []).map((a) => normalizeIdNumber(a.idNumber)));
  if (ids.size !== (attendees?.length ?? 0)) {
    throw appError('VALIDATION_FAILED', { field: 'attendees' }, '同一证件在一个订单中只能购买一张票');
  }
}

/** The price tiers an order's units belong to (the waiting list is per tier). */
export function tiersOf(cat: SessionCatalog, units: Units): string[] {
  if (units.kind === 'zone') return [units.zone.tierId];
  return [...new Set(units.seatIds.map((id) => cat.seats.get(id)!.tierId))];
}

/** Canonical hash of what was asked, to tell a retry from a different request under one key. */
export function requestHash(input: CreateOrderInput): string {
  const canonical =
    'seatIds' in input
      ? { s: input.sessionId, seats: [...input.seatIds].sort(), a: input.attendees ?? null }
      : { s: input.sessionId, zone: input.zoneId, q: input.quantity, a: input.attendees ?? null };
  // Only set when given, so the hashes of orders placed without a phone stay as they were.
  if (input.contactPhone) Object.assign(canonical, { p: input.contactPhone });
  // One-shot hash: no Hash object per purchase (about half the time of createHash on Node 20).
  return hash('sha256', JSON.stringify(canonical), 'hex');
}

export interface OrderDraft {
  id: string;
  userId: string;
  cat: SessionCatalog;
  units: Units;
  slots: number[];
  idempotencyKey: string | null;
  requestHash: string;
  now: Date;
  /** End of the hold (the Redis hold outlives it by the grace period). */
  expireAt: Date;
  /** Sealed attendees, only on real-name sessions. */
  attendees: SealedAttendee[];
  admissionJti: string | null;
  admissionUntil: Date | null;
  contactPhone: SealedPhone | null;
}

export function buildOrder(d: OrderDraft): NewOrder {
  const items: NewOrderItem[] =
    d.units.kind === 'seats'
      ? d.units.seatIds.map((seatId) => {
          const seat = d.cat.seats.get(seatId)!;
          return { seatId, tierId: seat.tierId, priceFen: seat.priceFen };
        })
      : d.slots.map((slotNo) => {
          const zone = (d.units as Extract<Units, { kind: 'zone' }>).zone;
          return { zoneId: zone.id, slotNo, tierId: zone.tierId, priceFen: zone.priceFen };
        });
  return {
    id: d.id,
    orderNo: orderNoFor(d.id, d.now),
    userId: d.userId,
    sessionId: d.cat.id,
    amountFen: items.reduce((sum, i) => sum + i.priceFen, 0),
    quantity: items.length,
    purchaseLimit: d.cat.purchaseLimit,
    idempotencyKey: d.idempotencyKey,
    requestHash: d.requestHash,
    expireAt: d.expireAt,
    createdAt: d.now,
    items,
    showId: d.cat.showId,
    showLimit: d.cat.showPurchaseLimit,
    attendees: d.attendees,
    admissionJti: d.admissionJti,
    admissionUntil: d.admissionUntil,
    contactPhone: d.contactPhone,
  };
}
