import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import { deleteExpiredAdmissionUses } from './repo';

/** Rows per DELETE: short statements, short locks, beside live purchases. */
export const PURGE_BATCH = 1_000;
/** Batches per run at most: a large backlog is worked off over several runs. */
export const PURGE_BATCHES_MAX = 50;
/**
 * A row outlives its token's expiry by this much before it goes: an instance whose clock runs
 * behind may still accept the token for a moment, and MySQL's primary key must still refuse a
 * second use then.
 */
export const PURGE_AFTER_EXPIRY_MS = 3_600_000;

/**
 * admission_uses keeps one row per waiting-room turn used: MySQL's backstop against a second
 * purchase with one token, and what a rebuild restores Redis markers from. Once the token has
 * expired it can no longer be presented, so the row only grows the table: purged in batches.
 */
export async function purgeAdmissionUses(
  d: { db: Db; log: Logger },
  now: Date,
  o: { batch?: number; batchesMax?: number } = {},
): Promise<number> {
  const batch = o.batch ?? PURGE_BATCH;
  const before = new Date(now.getTime() - PURGE_AFTER_EXPIRY_MS);
  let purged = 0;
  for (let i = 0; i < (o.batchesMax ?? PURGE_BATCHES_MAX); i++) {
    const n = await deleteExpiredAdmissionUses(d.db, before, batch);
    purged += n;
    if (n < batch) break;
  }
  if (purged) d.log.info({ purged }, 'expired admission uses purged');
  return purged;
}
