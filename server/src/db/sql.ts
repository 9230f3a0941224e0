import { format } from 'mysql2';

/**
 * Every stored time is UTC, whatever TZ the process runs under: DATETIME columns hold UTC, the
 * pool reads them back as UTC (timezone 'Z') and sets each session's time_zone to +00:00.
 */
export const SQL_TIME_ZONE = 'Z';

/**
 * The one way to build SQL text with values inlined (batched multi-statement writes). A bare
 * mysql.format renders Dates in the process's local time, so an order written under
 * TZ=Asia/Shanghai would expire 8 hours late; this renders them in UTC like the pool does.
 */
export function formatSql(sql: string, values: unknown): string {
  return format(sql, values as Parameters<typeof format>[1], false, SQL_TIME_ZONE);
}

/**
 * The pools' query formatting (connectionOptions' queryFormat): mysql2's own (the same escaping,
 * UTC dates), except that a statement sent without values goes as it is. mysql2 formats every
 * query and, given no values, still scans the whole text for a placeholder, character by
 * character; the group commits send batches already built by formatSql, tens of kilobytes each,
 * and that second scan was ~2.6% of a purchase's server CPU in a profile (issue 14, 2026-12-05).
 */
export function queryFormat(sql: string, values: unknown): string {
  if (values === undefined || values === null || (Array.isArray(values) && values.length === 0)) return sql;
  return formatSql(sql, values);
}

/**
 * A table named for a write that picks its rows by primary key (`WHERE id = ? AND status IN
 * (...)`): the write locks each row by its key first, as every other write of the row does.
 * Without the hint MariaDB may plan it on a status-leading index (orders' idx_status_expire,
 * refunds', outbox's, show_sessions') whenever that range looks as cheap as the key (one order
 * due, a small table, statistics behind a burst of changes), and then locks the index entry
 * first and the key second; a concurrent write of the same row planned on the key locks the key
 * first and then must change that index entry: a deadlock (CI, issue 14, 2026-12-05: a buyer's
 * cancel, planned on the key, against the expiry job's, planned on idx_status_expire).
 */
export const byKey = (table: string): string => `${table} FORCE INDEX (PRIMARY)`;

/**
 * Ids (BIGINTs held as strings) in numeric order: the order batches write rows in, so that two
 * batches meet their rows in the same order.
 */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
