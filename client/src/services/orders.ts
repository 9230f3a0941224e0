import type { CreateOrderInput, Order, Page, PayResponse } from '@showtix/shared-types';
import { CreateOrderSchema } from './schemas';
import { ApiError } from './errors';
import { request } from './http';
import { randomId } from '../utils/random';

/**
 * One purchase attempt: the Idempotency-Key stays the same while the request body does, so a
 * retried submit (timeout, 429, double tap) can never create a second order; a changed body
 * (other seats, other attendees) is a new attempt with a new key.
 */
export class OrderAttempt {
  private key: string | undefined;
  private body: string | undefined;

  keyFor(input: CreateOrderInput): string {
    const body = JSON.stringify(input);
    if (!this.key || body !== this.body) {
      this.key = randomId('order');
      this.body = body;
    }
    return this.key;
  }

  /** After a definite answer (an order, or a refusal) the next submit is a new attempt. */
  reset(): void {
    this.key = undefined;
    this.body = undefined;
  }
}

export async function createOrder(input: CreateOrderInput, attempt: OrderAttempt): Promise<Order> {
  const parsed = CreateOrderSchema.safeParse(input);
  if (!parsed.success)
    throw new ApiError({
      code: 'VALIDATION_FAILED',
      status: 400,
      message: parsed.error.issues[0]?.message ?? '请求参数有误',
    });
  return request<Order>('/api/v1/orders', {
    method: 'POST',
    body: input,
    auth: true,
    idempotencyKey: attempt.keyFor(input),
  });
}

/** The fan's orders, newest first; `status` narrows them (pending, paid, ticketed, refunded...). */
export function listOrders(before?: string, status?: string): Promise<Page<Order>> {
  const q = [before ? `before=${encodeURIComponent(before)}` : '', status ? `status=${status}` : '']
    .filter(Boolean)
    .join('&');
  return request<Page<Order>>(`/api/v1/orders${q ? `?${q}` : ''}`, { auth: true });
}

const orderPath = (orderNo: string) => `/api/v1/orders/${encodeURIComponent(orderNo)}`;

export function getOrder(orderNo: string): Promise<Order> {
  return request<Order>(orderPath(orderNo), { auth: true });
}

export function cancelOrder(orderNo: string): Promise<Order> {
  return request<Order>(`${orderPath(orderNo)}/cancel`, { method: 'POST', auth: true });
}

/** The prepay parameters of a pending order (POST .../pay); services/pay.ts opens them. */
export function fetchPayParams(orderNo: string): Promise<PayResponse> {
  return request<PayResponse>(`${orderPath(orderNo)}/pay`, { method: 'POST', auth: true });
}

/** ticketIds: refund only those tickets of the order (per-ticket 退票); none: the whole order. */
export function refundOrder(orderNo: string, reason?: string, ticketIds?: string[]): Promise<Order> {
  return request<Order>(`${orderPath(orderNo)}/refund`, {
    method: 'POST',
    auth: true,
    body: { ...(reason ? { reason } : {}), ...(ticketIds ? { ticketIds } : {}) },
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * After payment the server learns the result from WeChat's notification, so the order turns
 * paid and then ticketed a moment later: poll until it settles or the time is up.
 */
export async function waitForSettled(
  orderNo: string,
  opts: { timeoutMs?: number; intervalMs?: number; isCancelled?: () => boolean } = {},
): Promise<Order> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    const order = await getOrder(orderNo);
    const settled =
      order.status === 'ticketed' || order.status === 'cancelled' || order.status === 'refunded';
    if (settled || Date.now() >= deadline || opts.isCancelled?.()) return order;
    await sleep(opts.intervalMs ?? 1000);
  }
}
