import type { Logger } from 'pino';
import type { RowDataPacket } from 'mysql2';
import { createPool, type Db } from './pool';
import { GtidLag, type RowsOf } from './replica-lag';

/** How often each instance asks the replica how far behind it is. */
const CHECK_INTERVAL_MS = 250;

export interface ReplicaState {
  /** Where reads that may be stale go right now. */
  target: 'replica' | 'primary';
  /** Last measured lag (ms); null when unknown (replica down, not replicating, no privilege). */
  lagMs: number | null;
  reason: string;
}

/** Errors after which a read is tried again on the primary: the replica is gone, not the query wrong. */
const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'ER_SERVER_SHUTDOWN',
  'ER_CON_COUNT_ERROR',
  'ER_CONNECTION_KILLED',
]);

function isConnectionError(err: unknown): boolean {
  const e = err as { code?: string; fatal?: boolean; message?: string };
  return (
    CONNECTION_ERRORS.has(e?.code ?? '') ||
    e?.fatal === true ||
    /Pool is closed|connection is in closed state/i.test(e?.message ?? '')
  );
}

/** Only plain reads may go to the replica; anything else (and every transaction) stays on the primary. */
const isRead = (sql: unknown): boolean => {
  const text = typeof sql === 'string' ? sql : (sql as { sql?: string })?.sql;
  return (
    typeof text === 'string' &&
    /^\s*(\(\s*)*(SELECT|WITH)\b/i.test(text) &&
    !/\bFOR\s+UPDATE\b|\bLOCK\s+IN\s+SHARE\s+MODE\b/i.test(text)
  );
};

/**
 * Routes reads that may be a second stale (show list, admin lists, dashboard, exports) to a
 * MySQL/MariaDB replica while its lag is under maxLagMs, else to the primary. `readDb` is a Db
 * for plain SELECTs: a write, a locking read or getConnection() (a transaction) through it goes
 * to the primary, and a read the replica fails (it went away, lacks a table, a column or a
 * grant the primary has, or errs while shutting down) is run again on the primary, so a replica
 * restart costs no request. Lag is the larger of Seconds_Behind_Master
 * (SHOW REPLICA STATUS; a stopped SQL or IO thread reads as unknown) and the GTID lag in ms
 * (replica-lag.ts); the replica's user needs REPLICATION CLIENT (MySQL) / SLAVE MONITOR (MariaDB).
 */
export class ReplicaRouter {
  readonly readDb: Db;
  private readonly replica: Db | undefined;
  private readonly gtid: GtidLag | undefined;
  private lagMs: number | null = null;
  private checkedAt = 0;
  private reason = 'not checked yet';
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  /** A measurement queued behind the one in flight (check() callers need one started after them). */
  private next: Promise<void> | undefined;

  constructor(
    private readonly primary: Db,
    /** The replica's URL (or, in tests, a Db standing in for it); undefined: no replica. */
    replicaUrl: string | Db | undefined,
    private readonly o: {
      maxLagMs: number;
      poolSize: number;
      log: Logger;
      nowMs?: () => number;
      queryStacks?: boolean;
    },
  ) {
    this.replica =
      typeof replicaUrl === 'string'
        ? createPool(replicaUrl, o.poolSize, { queryStacks: o.queryStacks })
        : replicaUrl;
    const rows =
      (db: Db): RowsOf =>
      async (sql, params) =>
        (await db.query<RowDataPacket[]>(sql, params))[0];
    this.gtid = this.replica ? new GtidLag(rows(primary), (sql, p) => this.onReplica(sql, p)) : undefined;
    this.readDb = this.replica ? this.facade() : primary;
  }

  private now(): number {
    return (this.o.nowMs ?? Date.now)();
  }

  /** Starts measuring the lag (the first measurement is awaited, so reads start on the right side). */
  async start(): Promise<void> {
    if (!this.replica) return;
    await this.check();
    // The timer only starts a measurement when none is in flight: a slow replica is not queued up.
    this.timer = setInterval(() => void (this.checking ?? this.measureNow()), CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  state(): ReplicaState {
    if (!this.replica) return { target: 'primary', lagMs: null, reason: 'no replica configured' };
    // The replica may have fallen further behind since it was measured: the age counts as lag.
    const age = this.now() - this.checkedAt;
    const known = this.lagMs !== null && this.lagMs <= this.o.maxLagMs;
    const ok = known && this.lagMs! + age <= this.o.maxLagMs;
    const reason = ok ? 'lag within limit' : known ? `lag not measured for ${age} ms` : this.reason;
    return { target: ok ? 'replica' : 'primary', lagMs: this.lagMs, reason };
  }

  /**
   * One lag measurement started after this call; any failure makes the lag unknown (reads fall
   * back to the primary). A measurement already in flight is not enough: it may have been
   * answered before what made the caller ask (replication stopped, the replica gone), and would
   * vouch for the replica with an answer from before that. So a new one follows it, shared by
   * every caller that arrives meanwhile.
   */
  check(): Promise<void> {
    if (!this.replica) return Promise.resolve();
    if (!this.checking) return this.measureNow();
    const after = () => {
      this.next = undefined;
      return this.checking ?? this.measureNow();
    };
    this.next ??= this.checking.then(after, after);
    return this.next;
  }

  private measureNow(): Promise<void> {
    this.checking = this.measureOnce().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async measureOnce(): Promise<void> {
    const before = this.state().target;
    const startedAt = this.now();
    try {
      const rows = await this.onReplica('SHOW REPLICA STATUS');
      const gtidLagMs = await this.gtid!.measure(startedAt);
      this.measure(rows[0], gtidLagMs);
    } catch (err) {
      this.lagMs = null;
      this.reason = `replica unreachable: ${(err as Error).message}`;
    } finally {
      this.checkedAt = startedAt;
    }
    const after = this.state();
    if (after.target !== before)
      this.o.log[after.target === 'primary' ? 'warn' : 'info'](
        { lagMs: after.lagMs, reason: after.reason },
        `reads that may be stale now go to the ${after.target}`,
      );
  }

  /**
   * A query on the replica's pool. After a replica restart the pool still holds its dead
   * connections, each failing once: try again until a live one answers (or the replica is down).
   */
  private async onReplica(sql: string, params?: unknown[]): Promise<RowDataPacket[]> {
    for (let attempt = 0; ; attempt++) {
      try {
        return (await this.replica!.query<RowDataPacket[]>(sql, params))[0];
      } catch (err) {
        if (!isConnectionError(err) || attempt >= this.o.poolSize) throw err;
      }
    }
  }

  private measure(row: RowDataPacket | undefined, gtidLagMs: number): void {
    if (!row) {
      this.lagMs = null;
      this.reason = 'MYSQL_REPLICA_URL is not a replica (SHOW REPLICA STATUS is empty)';
      return;
    }
    // MariaDB and MySQL < 8.0.22 name them Slave_*/Master; MySQL 8.0.22+ Replica_*/Source.
    const io = row.Slave_IO_Running ?? row.Replica_IO_Running;
    const sqlThread = row.Slave_SQL_Running ?? row.Replica_SQL_Running;
    const behind = row.Seconds_Behind_Master ?? row.Seconds_Behind_Source;
    if (sqlThread !== 'Yes' || io !== 'Yes' || behind === null || behind === undefined) {
      this.lagMs = null;
      this.reason = `replication not running (IO ${io}, SQL ${sqlThread})`;
      return;
    }
    this.lagMs = Math.max(Number(behind) * 1000, gtidLagMs);
    this.reason = `replica ${this.lagMs} ms behind (limit ${this.o.maxLagMs} ms)`;
  }

  /** The Db handed to read-only services: plain reads to wherever state() says, the rest to the primary. */
  private facade(): Db {
    const route =
      (method: 'query' | 'execute') =>
      async (...args: unknown[]) => {
        const call = (db: Db) => (db[method] as (...a: unknown[]) => Promise<unknown>).apply(db, args);
        if (!isRead(args[0]) || this.state().target !== 'replica') return call(this.primary);
        try {
          return await call(this.replica!);
        } catch (err) {
          // Whatever the replica answered with, the primary answers: a plain read may run twice,
          // and a query really wrong fails on the primary the same way, with the primary's error.
          // Besides a replica gone or unfit, one erring on its own was seen: EE_DELETE about a
          // temporary table, when a MariaDB starting on the same host with the same tmpdir had
          // deleted it (mariadbd deletes every '#sql*' file in its tmpdir as it starts).
          if (isConnectionError(err)) {
            // Gone (or one of its dead pooled connections): measure again now, so that a
            // replica really down turns reads over at once.
            void this.check();
          } else {
            // Lacking a table, a column or a grant the primary has (a migration not applied
            // there), or erring on its own: the error's code says which.
            this.o.log.warn({ err }, 'the replica failed this read; the primary answers it');
          }
          return call(this.primary);
        }
      };
    return new Proxy(this.primary, {
      get: (target, prop, receiver) => {
        if (prop === 'query') return route('query');
        if (prop === 'execute') return route('execute');
        // end() is close()'s job: services must not close the primary through their read handle.
        if (prop === 'end') return async () => undefined;
        const v = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.replica?.end();
  }
}
