import { CreateOrderSchema, SEATS_PER_ORDER_MAX, type CreateOrderInput } from '@showtix/shared-types';

/** IdSchema's string form; numbers (which it turns into strings) are left to zod. */
const PLAIN_ID = /^[1-9]\d{0,17}$/;
const isId = (v: unknown): v is string => typeof v === 'string' && PLAIN_ID.test(v);

/**
 * A purchase body: the usual shapes (seats or a zone quantity, maybe an admission token, nothing
 * else) are checked by hand, since zod's union parse was ~2% of a purchase's CPU; the hand check
 * gives exactly what CreateOrderSchema would (same keys in the same order, copied arrays). Any
 * other body, valid or not (attendees, a phone, numeric ids, any mistake), goes to zod itself,
 * so every refusal and its details stay zod's.
 */
export function parseCreateOrder(body: unknown): CreateOrderInput {
  return plainOrder(body) ?? CreateOrderSchema.parse(body);
}

function plainOrder(body: unknown): CreateOrderInput | undefined {
  if (typeof body !== 'object' || body === null || Object.getPrototypeOf(body) !== Object.prototype)
    return undefined;
  const o = body as Record<string, unknown>;
  const n = Object.keys(o).length;
  if (!isId(o.sessionId)) return undefined;
  const token = o.admissionToken;
  const hasToken = Object.hasOwn(o, 'admissionToken');
  if (hasToken && (typeof token !== 'string' || token.length < 1 || token.length > 2048)) return undefined;
  const sessionId = o.sessionId;
  // Each shape as one literal (no spread of a common head: V8 builds those slower).
  if (Object.hasOwn(o, 'seatIds')) {
    const seats = o.seatIds;
    if (
      n !== (hasToken ? 3 : 2) ||
      !Array.isArray(seats) ||
      seats.length < 1 ||
      seats.length > SEATS_PER_ORDER_MAX
    )
      return undefined;
    if (!seats.every(isId) || new Set(seats).size !== seats.length) return undefined;
    const seatIds = (seats as string[]).slice();
    return hasToken ? { sessionId, admissionToken: token as string, seatIds } : { sessionId, seatIds };
  }
  const q = o.quantity;
  if (n !== (hasToken ? 4 : 3) || !isId(o.zoneId) || typeof q !== 'number') return undefined;
  if (!Number.isInteger(q) || q < 1 || q > SEATS_PER_ORDER_MAX) return undefined;
  const zoneId = o.zoneId;
  return hasToken
    ? { sessionId, admissionToken: token as string, zoneId, quantity: q }
    : { sessionId, zoneId, quantity: q };
}
