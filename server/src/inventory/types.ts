/** What the inventory scripts answer, in the service's own terms. */
export type TakeResult =
  | { kind: 'taken'; availAfter: number; slots: number[] }
  | { kind: 'replay'; orderId: string }
  | {
      kind: 'refused';
      code: RefusalCode;
      details?: Record<string, string | number>;
      /** What the script named with the refusal (seat, units left, count held): kept by the
       * refusal snapshot (orders/refusals.ts), never sent to the client unless in details. */
      named?: string | number;
      /** The user whose order holds the seat named (seat refusals; '' or absent: unknown). */
      holder?: string;
      /** Seat refusals: the request's other taken seats and their holders, for the snapshot too. */
      alsoTaken?: { seatId: string; holder: string }[];
    }
  /** A request rate used up or the hold cooldown: answered 429 with Retry-After. */
  | { kind: 'throttled'; code: 'RATE_LIMITED' | 'HOLD_COOLDOWN'; retryAfterMs: number };

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
  /** Request rates the take script counts in this session (none: not counted). */
  rates?: ScriptRates;
  /** Check the buyer's hold cooldown in the script (risk/service.ts writes it per session). */
  cooldown?: boolean;
}

/** One rate dimension of a purchase or a join: who is counted, and how many requests per window. */
export interface RateCount {
  subject: string;
  points: number;
  windowMs: number;
}

/** The rates a script counts in its session, by dimension (absent: not counted). */
export interface ScriptRates {
  user?: RateCount;
  device?: RateCount;
  ip?: RateCount;
}

/** A script's rate ARGV: points and window of the user, the device, the address (0 0: not counted). */
export function rateArgs(r: ScriptRates = {}): number[] {
  // Spelled out: this runs on every purchase and join (a flatMap of closures showed in the profile).
  const { user, device, ip } = r;
  return [
    user?.points ?? 0,
    user?.windowMs ?? 0,
    device?.points ?? 0,
    device?.windowMs ?? 0,
    ip?.points ?? 0,
    ip?.windowMs ?? 0,
  ];
}

// Decoded by the scripts' typed wrappers (redis/contract.ts).
export type { ConfirmMode, ConfirmResult, ReleaseResult } from '../redis/contract';

export interface LiveStates {
  held: string[];
  sold: string[];
  zones: Map<string, number>;
  loaded: boolean;
}
