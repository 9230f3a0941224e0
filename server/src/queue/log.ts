import type { RowDataPacket } from 'mysql2/promise';
import type { Logger } from 'pino';
import type { Db } from '../db/pool';
import { epochsSql, joinInsertSql, type JoinRecord } from './repo';

/** A join recorded under an epoch a rebuild has since replaced: run it again on the rebuilt queue. */
export class StaleEpoch extends Error {
  constructor() {
    super('waiting room rebuilt while this join was being recorded');
  }
}

interface Waiting {
  rec: JoinRecord;
  resolve: () => void;
  reject: (e: Error) => void;
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
export class QueueLog {
  private queue: Waiting[] = [];
  private inflight = 0;
  private scheduled = false;
  private idle: (() => void)[] = [];

  constructor(
    private readonly pool: Db,
    private readonly log: Logger,
    private readonly o: { batchMax: number; inflightMax: number } = { batchMax: 2_000, inflightMax: 2 },
  ) {}

  record(rec: JoinRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ rec, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  /** Resolves once nothing is queued or in flight. */
  drained(): Promise<void> {
    if (this.queue.length === 0 && this.inflight === 0) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }

  private pump(): void {
    while (this.inflight < this.o.inflightMax && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.o.batchMax);
      this.inflight++;
      void this.flush(batch).finally(() => {
        this.inflight--;
        this.pump();
        if (this.queue.length === 0 && this.inflight === 0) this.idle.splice(0).forEach((r) => r());
      });
    }
  }

  private async flush(batch: Waiting[]): Promise<void> {
    try {
      const stale = await this.write(batch.map((w) => w.rec));
      for (const w of batch) {
        if (stale.has(w.rec)) w.reject(new StaleEpoch());
        else w.resolve();
      }
    } catch (err) {
      this.log.error({ err, size: batch.length }, 'waiting room: joins not recorded');
      for (const w of batch) w.reject(err as Error);
    }
  }

  /** Writes the batch's current-epoch joins; returns the stale ones (not written). */
  private async write(recs: JoinRecord[]): Promise<Set<JoinRecord>> {
    const conn = await this.pool.getConnection();
    try {
      const sessions = [...new Set(recs.map((r) => r.sessionId))];
      const [results] = await conn.query<RowDataPacket[][]>(`START TRANSACTION; ${epochsSql(sessions)}`);
      const epochs = new Map(results[1]!.map((r) => [String(r.session_id), Number(r.epoch)]));
      const stale = new Set(recs.filter((r) => epochs.get(r.sessionId) !== r.epoch));
      const fresh = recs.filter((r) => !stale.has(r));
      await conn.query(fresh.length ? `${joinInsertSql(fresh)}; COMMIT` : 'COMMIT');
      return stale;
    } catch (err) {
      await conn.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      conn.release();
    }
  }
}
