import type { RowDataPacket } from 'mysql2';
/** A query on one side, answering its rows. */
export type RowsOf = (sql: string, params?: unknown[]) => Promise<RowDataPacket[]>;

/** Marks kept while the replica is behind; past this the oldest ones still bound the lag. */
const MARKS_MAX = 2_000;
/** The lag reported while no position has yet been seen applied: unknown, so far behind. */
const UNKNOWN_LAG_MS = 3_600_000;

/** "0-1-5,1-2-9" (MariaDB domain-server-seq) as the highest seq per domain. */
function mariaPositions(pos: string): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const g of pos.split(',').filter(Boolean)) {
    const [domain, , seq] = g.trim().split('-');
    if (domain !== undefined && seq !== undefined) out.set(domain, BigInt(seq));
  }
  return out;
}

/**
 * Lag in milliseconds from GTIDs: each check notes the primary's GTID position and the time. A
 * write the replica has not applied was made after the last noted position it has applied, so
 * the lag is how long ago that position was noted (0 when it has applied all of them). Counting
 * from when the oldest unapplied position was noted instead would read 0 for a write noted by
 * this very check, however old the write is. Seconds_Behind_Master alone misses this too: it
 * counts whole seconds and reads 0 while the replica's IO thread has not even fetched the write.
 */
export class GtidLag {
  private marks: { pos: string; atMs: number }[] = [];
  /** When the newest position seen applied was noted (undefined: none yet). */
  private appliedAtMs: number | undefined;
  private flavor: 'mariadb' | 'mysql' | undefined;

  constructor(
    private readonly primary: RowsOf,
    private readonly replica: RowsOf,
  ) {}

  private async detect(): Promise<'mariadb' | 'mysql'> {
    if (!this.flavor) {
      const rows = await this.primary('SELECT VERSION() AS v');
      this.flavor = /mariadb/i.test(String(rows[0]!.v)) ? 'mariadb' : 'mysql';
    }
    return this.flavor;
  }

  /** The lag now (ms). Throws when either side cannot be asked (the caller treats that as unknown). */
  async measure(nowMs: number): Promise<number> {
    const flavor = await this.detect();
    const p = await this.primary(
      flavor === 'mariadb'
        ? 'SELECT @@GLOBAL.gtid_binlog_pos AS pos'
        : 'SELECT @@GLOBAL.gtid_executed AS pos',
    );
    const pos = String(p[0]!.pos ?? '');
    if (this.marks.length < MARKS_MAX) this.marks.push({ pos, atMs: nowMs });
    const applied = await this.appliedCheck(flavor);
    while (this.marks.length && (await applied(this.marks[0]!.pos)))
      this.appliedAtMs = this.marks.shift()!.atMs;
    if (!this.marks.length) return 0;
    return this.appliedAtMs === undefined ? UNKNOWN_LAG_MS : nowMs - this.appliedAtMs;
  }

  /** A test of "the replica has applied this position", reading the replica's own position once. */
  private async appliedCheck(flavor: 'mariadb' | 'mysql'): Promise<(pos: string) => Promise<boolean>> {
    if (flavor === 'mysql')
      return async (pos) => {
        if (!pos) return true;
        const r = await this.replica('SELECT GTID_SUBSET(?, @@GLOBAL.gtid_executed) AS ok', [pos]);
        return Number(r[0]!.ok) === 1;
      };
    const r = await this.replica('SELECT @@GLOBAL.gtid_slave_pos AS pos');
    const have = mariaPositions(String(r[0]!.pos ?? ''));
    return async (pos) => {
      for (const [domain, seq] of mariaPositions(pos)) if ((have.get(domain) ?? -1n) < seq) return false;
      return true;
    };
  }
}
