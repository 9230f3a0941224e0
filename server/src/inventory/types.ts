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

export type ConfirmMode = 'owned' | 'record';

export type ConfirmResult =
  | { kind: 'confirmed' | 'already' | 'unknown' | 'released' }
  | { kind: 'not_owner' | 'conflict'; seatId: string };

export type ReleaseResult =
  { kind: 'released'; availAfter: number; freed: number } | { kind: 'already' | 'unknown' };

export interface LiveStates {
  held: string[];
  sold: string[];
  zones: Map<string, number>;
  loaded: boolean;
}
