/**
 * Degradation switches (熔断降级): what an operator can turn down during an overload, from the
 * admin page. Stored in MySQL, applied by every instance within moments (cache invalidation).
 */
import { z } from 'zod';
import { IdSchema } from './schemas';

/** The seat-states poll interval clients are told when no switch raises it. */
export const SEAT_POLL_DEFAULT_MS = 4_000;
/** Bounds of the raised interval: slower than this, a fan's map is stale for too long. */
export const SEAT_POLL_MAX_MS = 60_000;

export const DegradeSetSchema = z.discriminatedUnion('name', [
  /** Seat states less often: clients poll every pollMs (null: back to the default). */
  z.object({
    name: z.literal('seat_poll'),
    pollMs: z.number().int().min(SEAT_POLL_DEFAULT_MS).max(SEAT_POLL_MAX_MS).nullable(),
    reason: z.string().trim().max(200).optional(),
  }),
  /** Every purchase of the session goes through the waiting room, whatever its own setting. */
  z.object({
    name: z.literal('force_queue'),
    sessionId: IdSchema,
    on: z.boolean(),
    reason: z.string().trim().max(200).optional(),
  }),
  /** Posters upload, exports and reports answer 503 FEATURE_PAUSED. */
  z.object({
    name: z.literal('pause_nonessential'),
    on: z.boolean(),
    reason: z.string().trim().max(200).optional(),
  }),
]);
export type DegradeSetInput = z.infer<typeof DegradeSetSchema>;
export type DegradeName = DegradeSetInput['name'];

/** One switch that is on: who set it, when and why. */
export interface DegradeEntry {
  name: DegradeName;
  /** The session for force_queue; null for switches of the whole system. */
  sessionId: string | null;
  value: number;
  reason: string;
  updatedBy: string;
  updatedAt: string;
}

export interface DegradeState {
  /** null: clients poll seat states at SEAT_POLL_DEFAULT_MS. */
  seatPollMs: number | null;
  pauseNonEssential: boolean;
  forcedQueueSessionIds: string[];
  items: DegradeEntry[];
}
