/** What the inventory scripts answer, in the service's own terms. */
export type TakeResult =
  | { kind: 'taken'; availAfter: number; slots: number[] }
  | { kind: 'replay'; orderId: string }
  | { kind: 'refused'; code: RefusalCode; details?: Record<string, string | number> };

export type RefusalCode =
  | 'NOT_ON_SALE'
  | 'SEAT_TAKEN'
  | 'SOLD_OUT'
  | 'LIMIT_EXCEEDED'
  | 'IDEMPOTENCY_CONFLICT'
  | 'QUEUE_REQUIRED'
  | 'ID_TAKEN'
  | 'SERVICE_UNAVAILABLE';

export interface TakeRequest {
  sessionId: string;
  orderId: string;
  userId: string;
  nowMs: number;
  holdUntilMs: number;
  limit: number;
  /** 'userId:key' or '' when the request has no idempotency key. */
  idemField: string;
  requestHash: string;
  /** The waiting room's admission token, used up by this order. */
  admission?: { jti: string; ttlMs: number };
  /** Keyed hashes of the attendees' ID documents (real-name sessions). */
  idHashes?: string[];
}

// Decoded by the scripts' typed wrappers (redis/contract.ts).
export type { ConfirmMode, ConfirmResult, ReleaseResult } from '../redis/contract';

export interface LiveStates {
  held: string[];
  sold: string[];
  zones: Map<string, number>;
  loaded: boolean;
}
