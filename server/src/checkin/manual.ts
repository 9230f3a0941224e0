import type Redis from 'ioredis';
import { CODE_SKEW_STEPS, CODE_STEP_MS, manualDigitsAt } from '@showtix/shared-types/dist/ticket-code';
import type { Db } from '../db/pool';
import { liveBinding } from '../tickets/bindings-repo';
import { PathLimiter } from '../risk/limits';
import { attendeeOfTicket, type CheckinKind, type TicketForGate } from './repo';

/**
 * Manual entry (a cracked screen, a dead phone): the ticket number is typed in, and something a
 * number or a screenshot does not give must come with it:
 *  - idLast4: the last four characters of the attendee's ID, on real-name sessions (the attendant
 *    then compares the ID card with the masked name and number shown);
 *  - spokenCode: the six digits the holder's bound phone shows under its QR (manualDigits), read
 *    aloud; only the bound device can derive them (the key is a hash of its signature).
 */
export type SecondFactor = { idLast4: string } | { spokenCode: string };

export const MANUAL_LIMITS = {
  /** per gate of a session: a desk types a few numbers a minute at most */
  user: { points: 30, durationS: 60 },
  ip: { points: 0, durationS: 1 },
  /** per staff phone */
  device: { points: 10, durationS: 60 },
};

/** Limits manual attempts per gate and per staff device (guessing a spoken code takes many). */
export function manualLimiter(redis: Redis, keyPrefix: string): PathLimiter {
  return new PathLimiter(redis, keyPrefix, 'checkin-manual', MANUAL_LIMITS);
}

/** The admission kind when the factor is right; the refusal reason when not. */
export async function checkSecondFactor(
  db: Db,
  t: TicketForGate,
  f: SecondFactor,
  now: Date,
): Promise<{ kind: CheckinKind; bindingId?: string } | { reason: string }> {
  if ('idLast4' in f) {
    if (!t.real_name) return { reason: 'not real-name' };
    const a = await attendeeOfTicket(db, t.id);
    if (!a || a.id_masked.slice(-4).toUpperCase() !== f.idLast4.toUpperCase())
      return { reason: 'second factor' };
    return { kind: 'manual_id' };
  }
  const b = await liveBinding(db, t.id);
  if (!b) return { reason: 'not bound' };
  const step = Math.floor(now.getTime() / CODE_STEP_MS);
  for (let d = -CODE_SKEW_STEPS; d <= CODE_SKEW_STEPS; d++)
    if (manualDigitsAt(b.manual_key, step + d) === f.spokenCode)
      return { kind: 'manual_code', bindingId: String(b.id) };
  return { reason: 'second factor' };
}
