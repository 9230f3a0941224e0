import type { Exchange, ExchangeRequest } from '@showtix/shared-types';
import { request } from './http';
import { randomId } from '../utils/random';

const orderPath = (orderNo: string) => `/api/v1/orders/${encodeURIComponent(orderNo)}`;

/**
 * 改签: these tickets of the order to other seats (or units of a zone) of a session of the same
 * show. One Idempotency-Key per confirmation: a retried tap never holds a second set of seats.
 */
export function exchangeTickets(
  orderNo: string,
  body: ExchangeRequest,
  key = randomId('exchange'),
): Promise<Exchange> {
  return request<Exchange>(`${orderPath(orderNo)}/exchange`, {
    method: 'POST',
    auth: true,
    body,
    idempotencyKey: key,
  });
}

/** The exchanges of an order (as the original or as the exchange order), oldest first. */
export function listExchanges(orderNo: string): Promise<{ items: Exchange[] }> {
  return request<{ items: Exchange[] }>(`${orderPath(orderNo)}/exchanges`, { auth: true });
}
