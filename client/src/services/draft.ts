import { KEYS, readJson, remove, write } from './storage';

/**
 * What the fan picked on the seat map, carried to the order confirmation page. Kept in storage
 * so a reload of the confirmation page (H5) still knows the selection.
 */
export interface DraftSeat {
  id: string;
  label: string;
  tierName: string;
  priceFen: number;
}

export interface DraftZone {
  id: string;
  name: string;
  priceFen: number;
  quantity: number;
}

export interface CheckoutDraft {
  sessionId: string;
  showId: string;
  showTitle: string;
  venueName: string;
  startsAt: string;
  realName: boolean;
  purchaseLimit: number;
  /** The session has a waiting room: the order carries the fan's admission token. */
  queueEnabled?: boolean;
  seats?: DraftSeat[];
  zone?: DraftZone;
  /**
   * The order this draft became: kept after submitting, so a reload of 确认订单 (H5) shows the
   * pending order with its countdown and 支付 instead of losing it.
   */
  orderNo?: string;
}

export function saveDraft(d: CheckoutDraft): void {
  write(KEYS.draft, JSON.stringify(d));
}

export function loadDraft(sessionId: string): CheckoutDraft | undefined {
  const d = readJson<CheckoutDraft>(KEYS.draft);
  return d && d.sessionId === sessionId ? d : undefined;
}

export function clearDraft(): void {
  remove(KEYS.draft);
}

/** Number of tickets in the draft: one per seat, or the zone quantity. */
export function draftUnits(d: CheckoutDraft): number {
  return d.seats ? d.seats.length : (d.zone?.quantity ?? 0);
}

export function draftTotalFen(d: CheckoutDraft): number {
  if (d.seats) return d.seats.reduce((sum, s) => sum + s.priceFen, 0);
  return d.zone ? d.zone.priceFen * d.zone.quantity : 0;
}
