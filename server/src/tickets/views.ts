import type { Ticket, TicketStatus } from '@showtix/shared-types';
import { CODE_STEP_MS } from '@showtix/shared-types/dist/ticket-code';
import type { Db } from '../db/pool';
import type { BindingService } from './bindings';
import { liveBindingsOfUser } from './bindings-repo';
import { walletRowsOfUser, type WalletRow } from './wallet-repo';

const TICKET_STATUS_NAME: Record<number, TicketStatus> = {
  1: 'valid',
  2: 'voided',
  3: 'refunding',
  4: 'transferred',
  5: 'transferring',
  6: 'exchanged',
};

/** Whether the 转赠 button may show: the show allows it now and the ticket is plainly valid. */
function transferable(r: WalletRow, now: Date): boolean {
  if (r.status !== 1 || r.scannedAt || !r.transferEnabled) return false;
  if (r.transferOnceOnly && r.transferredFrom !== null) return false;
  return now.getTime() < r.startsAt.getTime() - Number(r.transferCutoffMinutes) * 60_000;
}

/**
 * The caller's tickets. Nothing here can make a code: a ticket's `binding` names the device key
 * the server bound to it (public), and only that device's private key turns it into codes.
 */
export async function ticketsOfUser(
  db: Db,
  bindings: BindingService,
  userId: string,
  now: Date,
  offers: Map<string, { code: string; expiresAt: string }> = new Map(),
): Promise<Ticket[]> {
  const rows = await walletRowsOfUser(db, userId);
  const live = await liveBindingsOfUser(db, userId);
  return rows.map((r) => {
    const row = live.get(String(r.id));
    const binding = row ? bindings.view(row, r.ticketNo, String(r.sessionId)) : undefined;
    return {
      ticketId: r.ticketNo,
      orderNo: r.orderNo,
      sessionId: r.sessionId,
      ...(r.seatId
        ? { seatId: r.seatId, seat: { section: r.section!, row: r.rowLabel!, number: r.seatNumber! } }
        : {}),
      ...(r.zoneId ? { zoneId: r.zoneId, zoneName: r.zoneName! } : {}),
      status: TICKET_STATUS_NAME[r.status]!,
      qr: binding?.binding ?? '',
      ...(binding ? { binding } : {}),
      codeStepMs: CODE_STEP_MS,
      ...(r.scannedAt ? { checkedInAt: r.scannedAt.toISOString() } : {}),
      showTitle: r.title,
      venueName: r.venueName,
      startsAt: r.startsAt.toISOString(),
      ...(r.attendeeName ? { attendee: { name: r.attendeeName, idMasked: r.attendeeIdMasked! } } : {}),
      ...(r.status === 5 && offers.has(String(r.id)) ? { transferOffer: offers.get(String(r.id))! } : {}),
      ...(r.transferredFrom !== null ? { received: true } : {}),
      transferable: transferable(r, now),
    };
  });
}
