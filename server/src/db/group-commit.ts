import type { Conn, Db } from './pool';

/** One submitted item and the promise its caller waits on. */
export interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (e: Error) => void;
}

export interface GroupCommitOptions {
  /** Items per batch at most. */
  batchMax: number;
  /** Batches in flight at once at most; items that arrive meanwhile gather into the next. */
  inflightMax: number;
}

/**
 * The scheduling half of a group commit: items submitted in the same tick (requests whose Redis
 * replies arrived together) and while earlier batches are in flight are handed to `flush` as one
 * batch. `flush` writes them and settles every item's promise, so each caller still waits for
 * its own durable commit. What a batch is in SQL, and how a refused batch is retried, is the
 * subclass's (orders/writer.ts, queue/log.ts).
 */
export abstract class GroupCommit<T> {
  private queue: Pending<T>[] = [];
  private inflight = 0;
  private scheduled = false;
  private idle: (() => void)[] = [];

  constructor(private readonly o: GroupCommitOptions) {}

  /** Writes one batch and settles each item; a throw rejects every item it left unsettled. */
  protected abstract flush(batch: Pending<T>[]): Promise<void>;

  protected submit(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      // Defer one tick so the items that arrive together share a batch.
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
      // A flush that throws rejects whatever it left unsettled (settling twice is a no-op).
      void this.flush(batch)
        .catch((err: unknown) => batch.forEach((p) => p.reject(err as Error)))
        .finally(() => {
          this.inflight--;
          this.pump();
          if (this.queue.length === 0 && this.inflight === 0) this.idle.splice(0).forEach((r) => r());
        });
    }
  }
}

/**
 * Runs `fn` on one pooled connection for a transaction sent as multi-statement queries
 * (`START TRANSACTION; …; COMMIT` in as few round trips as possible): on any error the
 * transaction is rolled back, and the connection always goes back to the pool.
 */
export async function inRoundTripTransaction<R>(pool: Db, fn: (conn: Conn) => Promise<R>): Promise<R> {
  const conn = await pool.getConnection();
  try {
    return await fn(conn);
  } catch (err) {
    await conn.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    conn.release();
  }
}
