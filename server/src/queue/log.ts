import type { Logger } from 'pino';
import {
  GroupCommit,
  inRoundTripTransaction,
  type GroupCommitOptions,
  type Pending,
} from '../db/group-commit';
import type { Db } from '../db/pool';
import { beginWithEpochs, insertJoinsAndCommit, type JoinRecord } from './repo';

/** A join recorded under an epoch a rebuild has since replaced: run it again on the rebuilt queue. */
export class StaleEpoch extends Error {
  constructor() {
    super('waiting room rebuilt while this join was being recorded');
  }
}

/**
 * Records joins in MySQL by group commit before they are answered (durable before the ack):
 * joins whose script replies arrived together go out as one transaction of two round trips (the
 * rooms' epochs under a shared lock, then one multi-row upsert and COMMIT), whatever their number.
 * While a batch is in flight the next one gathers. A rebuild holds the room's row exclusively
 * while it copies MySQL into Redis, so a batch either lands before that copy (and is in it) or
 * after, sees the new epoch, and refuses its older joins (StaleEpoch): no acknowledged place is
 * missing from a rebuilt queue, and none is given twice.
 */
export class QueueLog extends GroupCommit<JoinRecord> {
  constructor(
    private readonly pool: Db,
    private readonly log: Logger,
    o: GroupCommitOptions = { batchMax: 2_000, inflightMax: 2 },
  ) {
    super(o);
  }

  /** Resolves once the join is recorded; StaleEpoch if a rebuild replaced its queue meanwhile. */
  record(rec: JoinRecord): Promise<void> {
    return this.submit(rec);
  }

  protected async flush(batch: Pending<JoinRecord>[]): Promise<void> {
    try {
      const stale = await this.write(batch.map((w) => w.item));
      for (const w of batch) {
        if (stale.has(w.item)) w.reject(new StaleEpoch());
        else w.resolve();
      }
    } catch (err) {
      this.log.error({ err, size: batch.length }, 'waiting room: joins not recorded');
      for (const w of batch) w.reject(err as Error);
    }
  }

  /** Writes the batch's current-epoch joins; returns the stale ones (not written). */
  private write(recs: JoinRecord[]): Promise<Set<JoinRecord>> {
    return inRoundTripTransaction(this.pool, async (conn) => {
      const sessions = [...new Set(recs.map((r) => r.sessionId))];
      const epochs = await beginWithEpochs(conn, sessions);
      const stale = new Set(recs.filter((r) => epochs.get(r.sessionId) !== r.epoch));
      const fresh = recs.filter((r) => !stale.has(r));
      await insertJoinsAndCommit(conn, fresh);
      return stale;
    });
  }
}
