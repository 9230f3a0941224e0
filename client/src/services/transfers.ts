import type {
  TransferAccepted,
  TransferAcceptInput,
  TransferOffer,
  TransferPreview,
} from '@showtix/shared-types';
import { routeUrl } from '../routes';
import { request } from './http';

/**
 * Ticket transfers (转赠): the giver offers a ticket and shares a one-time link; the receiver
 * opens pages/transfer/index?code=... in their own mini-program and accepts it.
 */
export function offerTransfer(ticketId: string): Promise<TransferOffer> {
  return request<TransferOffer>(`/api/v1/tickets/${encodeURIComponent(ticketId)}/transfer`, {
    method: 'POST',
    auth: true,
  });
}

export function cancelTransfer(ticketId: string): Promise<{ ticketId: string; cancelled: boolean }> {
  return request(`/api/v1/tickets/${encodeURIComponent(ticketId)}/transfer`, {
    method: 'DELETE',
    auth: true,
  });
}

export function previewTransfer(code: string): Promise<TransferPreview> {
  return request<TransferPreview>(`/api/v1/transfers/${encodeURIComponent(code)}`, { auth: true });
}

export function acceptTransfer(code: string, body: TransferAcceptInput): Promise<TransferAccepted> {
  return request<TransferAccepted>(`/api/v1/transfers/${encodeURIComponent(code)}/accept`, {
    method: 'POST',
    auth: true,
    body,
  });
}

/** What a share of an offer carries: a card titled for the friend, opening the accept page. */
export function transferShare(showTitle: string, code: string): { title: string; path: string } {
  return { title: `送你一张《${showTitle}》的门票`, path: routeUrl('transfer', { code }) };
}
